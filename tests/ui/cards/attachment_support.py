"""What the attachment window tests read: the cards shown and their data, a named child, items by
name, and a workspace holding one file of each kind a card previews."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.ui_harness import find_all


def cards_shown(window) -> list:
    return find_all(window.root.contentItem(), "attachmentCard")


def card_data(window) -> dict[str, dict]:
    return {card.property("modelData")["uri"]: card.property("modelData") for card in cards_shown(window)}


def child_named(item, name: str):
    named = find_all(item, name)
    return named[0] if named else None


def make_workspace(root: Path) -> None:
    (root / "notes.md").write_text(
        "# Release notes\n\nSee [the site](https://example.com) and ![x](https://example.com/x.png).\n"
    )
    Image.new("RGB", (64, 48), (200, 30, 30)).save(root / "pic.png")
    (root / "data.csv").write_text("name,size\nalpha,1\nbeta,<b>2</b>\n")
    (root / "archive.zip").write_bytes(b"PK\x03\x04not really")


def items_named(window, name: str) -> list:
    return find_all(window.root.contentItem(), name)


def record_opens(window) -> list[str]:
    """What the attachment cards would hand the desktop to open, recorded instead (nothing may launch
    here): the list grows with each address."""
    opened: list[str] = []
    window.objects.attachments.files.open_external = lambda url: opened.append(url.toString()) or True
    return opened
