"""The Settings dialog and the app-wide settings (theme, font size) the window applies."""
