"""Icons as glyphs of an icon font, so they draw the same on every desktop (emoji drew as empty boxes
where no emoji font is installed). The font is VS Code's Codicons, as the maintained `qtawesome`
package ships it; it is loaded from that package's files (qtawesome itself is never imported: it would
pull QtPy in at startup). QML: `Text { font.family: icons.family; text: icons.glyph("terminal") }`."""

from __future__ import annotations

import importlib.util
import json
import logging
from pathlib import Path

from PySide6.QtCore import Property, QObject, Slot
from PySide6.QtGui import QFontDatabase

from app.contract.bundled import frozen, resources_dir

log = logging.getLogger(__name__)

FONT_PREFIX = "codicon"
# what each tool kind looks like (ACP tool kinds; anything else is "tools")
TOOL_KIND_ICONS = {
    "read": "file",
    "edit": "edit",
    "delete": "trash",
    "move": "arrow-swap",
    "search": "search",
    "execute": "terminal",
    "think": "lightbulb",
    "fetch": "globe",
    "switch_mode": "sync",
}


def _font_files() -> tuple[Path, Path] | None:
    """(the .ttf, its charmap): a bundle's own copy (resources/fonts), else inside the installed
    qtawesome package, found without importing it."""
    locations = [resources_dir()] if frozen() else []
    spec = importlib.util.find_spec("qtawesome")
    locations += [Path(location) for location in (spec.submodule_search_locations or [])] if spec else []
    for location in locations:
        fonts = Path(location) / "fonts"
        ttf = sorted(fonts.glob(f"{FONT_PREFIX}-*.ttf"))
        charmap = sorted(fonts.glob(f"{FONT_PREFIX}-charmap-*.json"))
        if ttf and charmap:
            return ttf[-1], charmap[-1]
    return None


class Icons(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._family = ""
        self._glyphs: dict[str, str] = {}
        files = _font_files()
        if files is None:
            log.warning("no icon font found (is qtawesome installed?): icons show as text")
            return
        font_id = QFontDatabase.addApplicationFont(str(files[0]))
        families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        if not families:
            log.warning("the icon font %s could not be loaded", files[0])
            return
        self._family = families[0]
        charmap = json.loads(files[1].read_text(encoding="utf-8"))
        self._glyphs = {name: chr(int(code, 16)) for name, code in charmap.items()}

    @Slot(str, result=str)
    def glyph(self, name: str) -> str:
        """The character of icon `name` ("" when the font or the name is unknown)."""
        return self._glyphs.get(name, "")

    @Slot(str, result=str)
    def toolKind(self, kind: str) -> str:
        return self.glyph(TOOL_KIND_ICONS.get(kind, "tools"))

    family = Property(str, lambda self: self._family, constant=True)
