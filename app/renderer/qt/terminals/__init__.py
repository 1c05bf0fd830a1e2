"""The user's terminals in the window: the painted screen item, the panel and its tabs, the access bar."""
