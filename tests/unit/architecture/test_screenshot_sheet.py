"""The sheet of the main screens puts each screen's light and dark screenshots side by side under its
caption, leaves out a screen the run did not shoot, and makes nothing from nothing."""

from __future__ import annotations

from PIL import Image

from tests.screenshot_sheet import TILE_WIDTH, make_sheet


def test_the_sheet_lays_light_beside_dark_and_skips_what_was_not_shot(tmp_path):
    for name, colour in (("a", "#ffffff"), ("a-dark", "#000000"), ("b", "#ff0000")):  # b has no dark
        Image.new("RGB", (1200, 800), colour).save(tmp_path / f"{name}.png")
    assert make_sheet(tmp_path, (("missing", "Nothing"),)) is None
    sheet = Image.open(make_sheet(tmp_path, (("a", "A screen"), ("b", "Light only"))))
    assert sheet.width == 2 * TILE_WIDTH + 24
    assert sheet.height == 28 + 400 + 16  # one row: a's (b was left out), scaled to half its size
    middle = 28 + 8 + 200
    assert sheet.getpixel((8 + TILE_WIDTH // 2, middle)) == (255, 255, 255)  # light on the left
    assert sheet.getpixel((16 + TILE_WIDTH * 3 // 2, middle)) == (0, 0, 0)  # dark beside it
