"""The user's desktop beyond the window: freedesktop notifications and handing a file to an application."""
