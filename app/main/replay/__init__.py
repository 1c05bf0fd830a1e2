"""`clawqt replay` and the inspector's Open trace…: a recorded trace fed through the session machine."""
