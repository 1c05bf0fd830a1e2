"""Serves images QML shows from memory (`image://<name>/<id>`): previews, inline images and thumbnails
are decoded from bytes the main side read or Pillow made, so QML never loads a file or URL itself."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QImage
from PySide6.QtQuick import QQuickImageProvider


class MemoryImages(QQuickImageProvider):
    def __init__(self, lookup: Callable[[str], QImage]) -> None:
        super().__init__(QQuickImageProvider.ImageType.Image)
        self._lookup = lookup

    def requestImage(self, image_id: str, size: QSize, requested: QSize) -> QImage:
        image = self._lookup(image_id)
        if requested.isValid() and not image.isNull():
            image = image.scaled(requested.expandedTo(QSize(1, 1)), Qt.AspectRatioMode.KeepAspectRatio)
        if size is not None:
            size.setWidth(image.width())
            size.setHeight(image.height())
        return image
