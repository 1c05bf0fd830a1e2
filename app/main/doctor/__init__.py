"""The protocol doctor: what an agent offered in `initialize`, what ClawQt declared, the features
either side leaves off in plain words, and a timed check of the agent on a connection of its own."""
