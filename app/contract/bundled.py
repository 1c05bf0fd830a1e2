"""Where the files shipped beside the code live: inside a PyInstaller bundle (`sys._MEIPASS`), else the
checkout. One place, so the window, the fonts, the icons and the app icon never guess differently."""

from __future__ import annotations

import sys
from pathlib import Path

APP_ID = "io.github.clawqt.ClawQt"  # the desktop entry, the AppStream id, the icon's name


def frozen() -> bool:
    """Running from a PyInstaller bundle (onedir or onefile)."""
    return bool(getattr(sys, "frozen", False))


def resources_dir() -> Path:
    """`resources/` of the checkout, or its copy inside the bundle."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def app_icon() -> Path:
    """The app's scalable icon (its PNG sizes are beside it for desktops that want them)."""
    return resources_dir() / "icons" / "clawqt.svg"
