"""Icons drawn from the Lucide SVGs shipped in `resources/icons/lucide/`, in the colour the view asks
for: `image://icon/<name>?c=<rrggbb>` with the Image's `sourceSize` as the size (Icon.qml builds the
URL). The SVGs draw with `currentColor`, which is replaced by the asked colour before Qt's SVG renderer
paints them, so a theme's colour reaches every stroke and QML never writes a colour into an icon. Each
(name, colour, size) is drawn once and kept; an unknown name draws nothing (an empty image) and says so
once in the log."""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from pathlib import Path
from urllib.parse import parse_qs

from PySide6.QtCore import QByteArray, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtQuick import QQuickImageProvider
from PySide6.QtSvg import QSvgRenderer

from app.contract.bundled import resources_dir

log = logging.getLogger(__name__)

ICON_PROVIDER = "icon"
DEFAULT_SIZE = 16
KEPT = 512  # drawn images kept: every icon of the window in both themes, several sizes
_COLOUR = re.compile(r"^(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")


def icon_folder() -> Path:
    return resources_dir() / "icons" / "lucide"


class IconImages(QQuickImageProvider):
    def __init__(self, folder: Path | None = None) -> None:
        super().__init__(QQuickImageProvider.ImageType.Image)
        self._folder = folder or icon_folder()
        self._svgs: dict[str, str | None] = {}
        self._drawn: OrderedDict[tuple[str, str, int, int], QImage] = OrderedDict()
        self._lock = threading.Lock()  # an asynchronous Image asks from a loader thread

    def _svg(self, name: str) -> str | None:
        if name not in self._svgs:
            path = self._folder / f"{name}.svg"
            text = (
                path.read_text(encoding="utf-8")
                if re.fullmatch(r"[a-z0-9-]+", name) and path.is_file()
                else None
            )
            if text is None:
                log.warning("no icon named %r in %s", name, self._folder)
            self._svgs[name] = text
        return self._svgs[name]

    def requestImage(self, image_id: str, size: QSize, requested: QSize) -> QImage:
        name, _, query = image_id.partition("?")
        colour = (parse_qs(query).get("c") or ["000000"])[0]
        colour = colour if _COLOUR.match(colour) else "000000"
        width = requested.width() if requested.width() > 0 else DEFAULT_SIZE
        height = requested.height() if requested.height() > 0 else width
        key = (name, colour, width, height)
        with self._lock:
            image = self._drawn.get(key)
            if image is None:
                image = self._draw(name, colour, width, height)
                self._drawn[key] = image
                if len(self._drawn) > KEPT:
                    self._drawn.popitem(last=False)
            else:
                self._drawn.move_to_end(key)
        if size is not None:
            size.setWidth(image.width())
            size.setHeight(image.height())
        return image

    def _draw(self, name: str, colour: str, width: int, height: int) -> QImage:
        image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        svg = self._svg(name)
        if svg is None:
            return image
        # "#aarrggbb" from QML: the SVG wants "#rrggbb" with its opacity apart
        rgb, opacity = (colour[2:], int(colour[:2], 16) / 255) if len(colour) == 8 else (colour, 1.0)
        renderer = QSvgRenderer(QByteArray(svg.replace("currentColor", f"#{rgb}").encode()))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        if opacity < 1:  # the whole icon at once: strokes that cross stay as faint as the rest
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_DestinationIn)
            painter.fillRect(image.rect(), QColor(0, 0, 0, round(opacity * 255)))
        painter.end()
        return image
