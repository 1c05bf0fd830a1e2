"""What every Qt part uses: tasks started from the view, notices, named roles and keyed list models,
dialogs, icons, image providers and the scans of what the window shows."""
