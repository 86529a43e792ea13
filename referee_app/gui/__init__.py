"""The referee desk: a PySide6 window over the engine (``referee_app.core``) and the
tournament store (``referee_app.storage``).

Layout lives in :mod:`.views`, logic in :mod:`.controllers`; GUI actions are one-line
wrappers around engine or storage calls, so the window never scores a hand itself and
never touches SQL.
"""
