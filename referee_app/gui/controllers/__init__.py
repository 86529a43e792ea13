"""Logic behind the views: the entry form's state and the desk's calls into storage."""
