"""The app icon for every desktop, made from one SVG (`resources/icons/clawqt.svg`): the freedesktop
hicolor PNG sizes and scalable copy named by the app id (what the `.desktop` entry's Icon= names), a
Windows `.ico` and a macOS `.icns`. `python -m app.packaging icons` writes them into resources/icons;
the results are kept in the repository so a build needs no renderer."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path
from typing import cast

from app.contract.bundled import APP_ID

PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)


def render_png(svg: Path, size: int) -> bytes:
    """The SVG drawn at `size` x `size` pixels with Qt's SVG renderer, as PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # drawing into an image needs no display
    _ = QGuiApplication.instance() or QGuiApplication([])  # fonts and painting need the application
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg} is not an SVG Qt can draw")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, cast(bytes, "PNG"))  # PySide6 wants a str here, its stubs say bytes
    return bytes(data.data())


def write_icons(icons: Path) -> list[Path]:
    """Every icon file made from `icons/clawqt.svg`, written into `icons`; the paths written."""
    from PIL import Image

    svg = icons / "clawqt.svg"
    written: list[Path] = []
    largest: Image.Image | None = None
    for size in PNG_SIZES:
        target = icons / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(render_png(svg, size))
        written.append(target)
        largest = Image.open(io.BytesIO(target.read_bytes()))
    scalable = icons / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    written.append(scalable)
    assert largest is not None
    ico = icons / "clawqt.ico"
    largest.save(ico, format="ICO", sizes=[(size, size) for size in ICO_SIZES])
    icns = icons / "clawqt.icns"
    largest.save(icns, format="ICNS")
    written += [ico, icns]
    return written
