"""The accents the user can pick in Settings (Theme.qml draws each, light and dark, at the contrast
tests/unit/architecture/test_contrast.py asks of every one), named once for the main side, which
checks and saves the choice, and the window, which offers it."""

from __future__ import annotations

ACCENTS = ("blue", "violet", "green", "orange", "pink")  # the first is the default
