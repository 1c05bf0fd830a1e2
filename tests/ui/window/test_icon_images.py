"""The icon images the views draw (`image://icon/<name>?c=`): every tool kind has one, each drawn in the
colour asked, every stroke of it."""

from __future__ import annotations


def test_every_tool_kind_has_an_icon_that_draws_in_the_colour_asked(qapp):
    from PySide6.QtCore import QSize

    from app.renderer.qt.common.icon_images import IconImages
    from app.renderer.qt.common.icons import TOOL_KIND_ICONS, Icons

    icons, images = Icons(), IconImages()
    for kind in [*TOOL_KIND_ICONS, "other", "something-new"]:
        image = images.requestImage(icons.toolKind(kind) + "?c=b91c1c", QSize(), QSize(16, 16))
        colours = {
            image.pixelColor(x, y).name()
            for x in range(16)
            for y in range(16)
            if image.pixelColor(x, y).alpha() == 255
        }
        assert (image.width(), image.height()) == (16, 16) and colours == {"#b91c1c"}, kind  # every stroke
    unknown = images.requestImage("no-such-icon?c=000000", QSize(), QSize(16, 16))
    assert not any(unknown.pixelColor(x, y).alpha() for x in range(16) for y in range(16))  # nothing drawn
    faint = images.requestImage("x?c=80ffffff", QSize(), QSize(24, 24))  # "#aarrggbb", as QML writes it
    assert (
        faint.width() == 24
        and max(faint.pixelColor(x, y).alpha() for x in range(24) for y in range(24)) == 128
    )
