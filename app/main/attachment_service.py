"""Attachment actions for the window: the async face of `AttachmentAccess`.

File system calls run off the event loop (a slow disk or network mount must not freeze the window),
and the session is checked again once they return: a generation change while a resolution was pending
invalidates it (the result is refused as stale, never shown for the new session). What a preview may
read, and how much, is decided here too."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from typing import Literal

from app.main.attachment_access import (
    AttachmentAccess,
    AttachmentError,
    Refusal,
    Resolution,
    SessionCheck,
)

PreviewKind = Literal["image", "markdown", "csv", "text", "other"]

IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"}
MARKDOWN_EXTENSIONS = {".md", ".markdown", ".mdown"}
CSV_EXTENSIONS = {".csv", ".tsv"}
TEXT_EXTENSIONS = {
    ".txt", ".log", ".py", ".js", ".ts", ".tsx", ".jsx", ".json", ".toml", ".yaml", ".yml", ".ini", ".cfg",
    ".sh", ".bash", ".zsh", ".c", ".h", ".cpp", ".hpp", ".rs", ".go", ".java", ".kt", ".rb", ".php",
    ".html", ".css", ".xml", ".sql", ".qml", ".diff", ".patch", ".rst", ".lua", ".swift", ".cs",
}  # fmt: skip
MAX_IMAGE_BYTES = 25 * 1024 * 1024
MAX_TEXT_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Preview:
    """What the preview panel shows: the bytes the main side read (bounded) and how to present them."""

    resolution: Resolution
    kind: PreviewKind
    data: bytes
    truncated: bool


def preview_kind(resolution: Resolution) -> PreviewKind:
    """By extension first; files without a known one are sniffed as text when they are read."""
    if resolution.kind != "file":
        return "other"
    extension = os.path.splitext(resolution.target)[1].lower()
    if extension in IMAGE_EXTENSIONS:
        return "image"
    if extension in MARKDOWN_EXTENSIONS:
        return "markdown"
    if extension in CSV_EXTENSIONS:
        return "csv"
    if extension in TEXT_EXTENSIONS or not extension:
        return "text"
    return "other"


def looks_like_text(data: bytes) -> bool:
    head = data[:8192]
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 4  # a character cut at the sample's end
    return True


class AttachmentService:
    def __init__(self, session_check: SessionCheck) -> None:
        self._check = session_check
        self.access = AttachmentAccess(session_check)

    def _still_current(self, session_key: str, generation: int) -> None:
        if self._check(session_key, generation) is None:
            raise AttachmentError(Refusal.STALE_SESSION, "the session changed while this was resolved")

    async def resolve(self, session_key: str, generation: int, reference: str) -> Resolution:
        resolution = await asyncio.to_thread(self.access.resolve, session_key, generation, reference)
        self._still_current(session_key, generation)
        return resolution

    async def preview(self, session_key: str, generation: int, reference: str) -> Preview:
        """Read what the panel needs; "other" (and directories) read nothing: they open externally."""
        resolution = await self.resolve(session_key, generation, reference)
        kind = preview_kind(resolution)
        if kind == "other":
            return Preview(resolution, kind, b"", False)
        limit = MAX_IMAGE_BYTES if kind == "image" else MAX_TEXT_BYTES
        if kind == "image" and (resolution.size or 0) > MAX_IMAGE_BYTES:
            return Preview(resolution, "other", b"", True)  # too big to preview: open it instead
        result = await asyncio.to_thread(self.access.read, session_key, generation, reference, limit)
        self._still_current(session_key, generation)
        if kind == "text" and not looks_like_text(result.data):
            return Preview(result.resolution, "other", b"", False)
        return Preview(result.resolution, kind, result.data, result.truncated)

    async def open_target(self, session_key: str, generation: int, reference: str) -> str:
        """The URL to open right now, re-resolved on the click."""
        _resolution, url = await asyncio.to_thread(
            self.access.open_target, session_key, generation, reference
        )
        self._still_current(session_key, generation)
        return url
