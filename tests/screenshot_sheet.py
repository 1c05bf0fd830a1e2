"""The main screens side by side, light beside dark, on one sheet (`test-artifacts/screenshots/
00-main-screens.png`): what a reviewer looks at first, made from the screenshots the run saved. A
screen whose screenshots this run did not make is left out (a partial run makes a partial sheet)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

# (screenshot name, caption): first start, the demo tour, a permission, the terminal panel with a
# proposal, many chats, Settings, the inspector, a failure
MAIN_SCREENS = (
    ("61-welcome", "First start"),
    ("01a-tour-mid-stream", "The demo tour, mid-stream"),
    ("01-showcase", "The demo tour, finished"),
    ("59-permission-waiting", "A permission waiting, in its tool card"),
    ("83-proposal-split", "The terminal panel with a proposal"),
    ("63-sidebar-many-chats", "50 chats over many days"),
    ("52-settings", "Settings"),
    ("65-protocol-inspector", "The protocol inspector"),
    ("66-agent-missing", "A failure, with next steps"),
)
SHEET = "00-main-screens"
TILE_WIDTH = 600  # each screenshot scaled to this width
CAPTION = 28


def make_sheet(folder: Path, screens: tuple[tuple[str, str], ...] = MAIN_SCREENS) -> Path | None:
    """Lay out each screen's light and dark screenshot in a row, a caption above; None when the run
    saved none of them."""
    rows = []
    for name, caption in screens:
        pair = [folder / f"{name}.png", folder / f"{name}-dark.png"]
        if all(path.exists() for path in pair):
            rows.append((caption, [Image.open(path).convert("RGB") for path in pair]))
    if not rows:
        return None
    heights = [max(round(image.height * TILE_WIDTH / image.width) for image in images) for _, images in rows]
    size = (2 * TILE_WIDTH + 3 * 8, sum(heights) + len(rows) * (CAPTION + 8) + 8)
    sheet = Image.new("RGB", size, "#d4d4d8")
    draw = ImageDraw.Draw(sheet)
    y = 8
    for (caption, images), height in zip(rows, heights, strict=True):
        draw.text((8, y + 8), caption, fill="#18181b")
        y += CAPTION
        for column, image in enumerate(images):
            scaled = image.resize((TILE_WIDTH, round(image.height * TILE_WIDTH / image.width)), Image.LANCZOS)
            sheet.paste(scaled, (8 + column * (TILE_WIDTH + 8), y))
        y += height + 8
    target = folder / f"{SHEET}.png"
    sheet.save(target)
    return target
