"""What the preview panel shows (`attachments.preview`), built from what the main side read: an image,
a PDF's pages, highlighted text, rendered Markdown, a table, a page's HTML the main side made safe, or
the message's own embedded copy. Images go to the panel's image provider through `store`; the rest is
plain data for QML."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QImage

from app.contract.attachments import Preview

Store = Callable[[str, QImage], str]  # (prefix, image) -> its image:// URL


def preview_content(uri: str, preview: Preview, store: Store) -> dict[str, Any]:
    resolution = preview.resolution
    cut = "Showing the beginning only (the file is larger)" if preview.truncated else ""
    shown: dict[str, Any] = {
        "uri": uri,
        "name": resolution.name,
        "path": resolution.target,
        "kind": preview.kind,
        "outside": resolution.outside_workspace,
        "canOpen": True,
        "note": preview.note or cut,
    }
    if preview.kind == "image":
        image = QImage.fromData(preview.data)
        if image.isNull():
            shown.update(kind="other", note="This image could not be decoded.")
        else:
            shown["image"] = store("preview", image)
    elif preview.kind == "pdf":  # the first page replaces the last preview's images, the rest join it
        pages = enumerate(QImage.fromData(page) for page in preview.pages)
        shown["pages"] = [store("preview_page" if n else "preview", page) for n, page in pages]
    elif preview.kind == "html":
        shown["html"] = preview.data.decode("utf-8", errors="replace")  # made safe by the main side
    elif preview.kind in ("text", "markdown", "csv"):
        from app.renderer.present.preview import preview_html  # pygments' lexer tables: not at startup

        body, note = preview_html(preview.kind, resolution.name, preview.data)
        shown["html"] = body
        shown["note"] = " ".join(filter(None, (shown["note"], note)))
    return shown


def embedded_content(key: str, embedded: dict[str, Any]) -> dict[str, Any]:
    """The message's own copy, presented like a file of its name; never "Open with" (the file its uri
    names on disk is not what the agent sent)."""
    shown: dict[str, Any] = {"uri": key, "name": embedded["name"], "path": "embedded in the message"}
    shown.update(kind="other", outside=False, canOpen=False, note="")
    text = embedded.get("text")
    if text is None:
        shown["note"] = f"Binary content ({embedded.get('size', 0):,} bytes), not shown."
        return shown
    from app.renderer.present.preview import preview_html, text_kind  # pygments: not at startup

    kind = text_kind(embedded["name"], embedded.get("mimeType") or "")
    body, note = preview_html(kind, embedded["name"], text.encode("utf-8", "surrogatepass"))
    total = embedded["size"]
    cut = f"Showing the first {len(text):,} of {total:,} characters." if embedded["truncated"] else ""
    shown.update(kind=kind, html=body, note=" ".join(filter(None, (cut, note))))
    return shown
