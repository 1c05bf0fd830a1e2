"""The app's own faces: Inter for the interface and prose, JetBrains Mono for code and terminals, both
under the SIL Open Font Licence and shipped in `resources/fonts/` (their licences beside them). The
system's fonts set the tone otherwise, and a monospace named by hand (DejaVu Sans Mono) is missing on
Windows and macOS. Characters neither face has (CJK, emoji) are drawn from the system's fonts by Qt's
own fallback, after the families named in `SANS_FALLBACKS`."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication

from app.contract.bundled import resources_dir

log = logging.getLogger(__name__)

SANS, MONO = "Inter", "JetBrains Mono"
# tried in order for a character the face lacks, before the system's own choice
SANS_FALLBACKS = ("Noto Sans", "Noto Sans CJK SC", "Segoe UI", "Helvetica Neue", "Noto Color Emoji")
MONO_FALLBACKS = ("DejaVu Sans Mono", "Menlo", "Consolas", "Noto Sans Mono CJK SC")


@dataclass(frozen=True)
class Faces:
    """The family names the views use: the shipped ones when they loaded, else the system's."""

    sans: str
    mono: str


_loaded: list[Faces] = []  # once per process: the font database keeps what it was given


def load_faces() -> Faces:
    """Add the shipped faces to the application's font database (once) and make the interface face
    the application font, keeping its size (the text size setting scales that)."""
    if _loaded:
        return _loaded[0]
    families: set[str] = set()
    for path in sorted((resources_dir() / "fonts").glob("*/*.[ot]tf")):
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            log.warning("the font %s could not be loaded", path)
            continue
        families.update(QFontDatabase.applicationFontFamilies(font_id))
    system = QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont).family()
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()
    faces = Faces(sans=SANS if SANS in families else system, mono=MONO if MONO in families else fixed)
    font = QGuiApplication.font()
    font.setFamilies([faces.sans, *SANS_FALLBACKS])
    QGuiApplication.setFont(font)
    _loaded.append(faces)
    return faces


def mono_font(pixel_size: int) -> QFont:
    """The code face at a size, ligatures off (`->` stays two characters), for painted text."""
    font = QFont([load_faces().mono, *MONO_FALLBACKS])
    font.setPixelSize(pixel_size)
    font.setStyleHint(QFont.StyleHint.Monospace)
    for feature in ("liga", "calt"):
        font.setFeature(QFont.Tag(feature), 0)
    return font
