"""What the user owns on disk: the config file read once, the settings written back, the agents list in
Settings, drafts, queued messages and the window's placement."""
