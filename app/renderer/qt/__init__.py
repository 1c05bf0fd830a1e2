"""Qt side of the renderer: list models fed by the timeline's row changes, the controller QML talks
to, and the window. Everything here runs on the GUI thread."""
