"""Layout widgets of the referee desk; they hold no scoring or storage logic."""
