"""Attachment actions for the window: the async face of `AttachmentAccess`.

File system calls run off the event loop (a slow disk or network mount must not freeze the window),
and the session is checked again once they return: a generation change while a resolution was pending
invalidates it (the result is refused as stale, never shown for the new session). What a preview may
read, and how much, is decided here too."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from app.contract.attachments import Preview, PreviewKind, Resolution
from app.contract.errors import AttachmentError, Refusal
from app.main.desktop.opener import DesktopOpener
from app.main.files.attachment_access import AttachmentAccess, SessionCheck, basename, display_name
from app.main.files.previews import (
    MAX_OFFICE_BYTES,
    MAX_PDF_BYTES,
    DocumentTooLarge,
    DocumentUnreadable,
    Rendered,
    document_text,
    pdf_pages,
    safe_html,
    workbook_rows,
)
from app.main.files.user_images import thumbnail_of_bytes

IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"}
MARKDOWN_EXTENSIONS = {".md", ".markdown", ".mdown"}
CSV_EXTENSIONS = {".csv", ".tsv"}
TEXT_EXTENSIONS = {
    ".txt", ".log", ".py", ".js", ".ts", ".tsx", ".jsx", ".json", ".toml", ".yaml", ".yml", ".ini", ".cfg",
    ".sh", ".bash", ".zsh", ".c", ".h", ".cpp", ".hpp", ".rs", ".go", ".java", ".kt", ".rb", ".php",
    ".css", ".xml", ".sql", ".qml", ".diff", ".patch", ".rst", ".lua", ".swift", ".cs",
}  # fmt: skip
MAX_IMAGE_BYTES = 25 * 1024 * 1024
MAX_TEXT_BYTES = 1024 * 1024
# documents read whole and turned into what the panel shows (previews.py): kind, reader, limit
DOCUMENTS: dict[str, tuple[PreviewKind, Callable[[bytes], Rendered], int]] = {
    ".pdf": ("pdf", pdf_pages, MAX_PDF_BYTES),
    ".xlsx": ("csv", workbook_rows, MAX_OFFICE_BYTES),
    ".xlsm": ("csv", workbook_rows, MAX_OFFICE_BYTES),
    ".docx": ("text", document_text, MAX_OFFICE_BYTES),
    ".html": ("html", safe_html, MAX_TEXT_BYTES),
    ".htm": ("html", safe_html, MAX_TEXT_BYTES),
}


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
    """The attachments part of the host API (contract: AttachmentsHost)."""

    def __init__(self, session_check: SessionCheck, opener: DesktopOpener | None = None) -> None:
        self._check = session_check
        self.access = AttachmentAccess(session_check)
        self.opener = opener or DesktopOpener()

    def _still_current(self, session_key: str, generation: int) -> None:
        if self._check(session_key, generation) is None:
            raise AttachmentError(Refusal.STALE_SESSION, "the session changed while this was resolved")

    def label(self, reference: str, name: str | None = None) -> str:
        """A name safe to show before (or without) a resolution: the given name, else the basename."""
        return display_name(name or basename(reference))

    async def thumbnail(self, session_key: str, generation: int, reference: str) -> bytes | None:
        """A PNG thumbnail of the image file the reference names now, inside the workspace only (one
        outside is read only on the user's click), from bytes read the confined way; Pillow runs off the
        event loop."""
        try:
            preview = await self._preview(session_key, generation, reference, outside_allowed=False)
        except AttachmentError as exc:
            if exc.refusal is Refusal.NOT_WITHOUT_A_CLICK:
                return None
            raise
        if preview.kind != "image":
            return None
        png = await asyncio.to_thread(thumbnail_of_bytes, preview.data)
        self._still_current(session_key, generation)
        return png

    async def resolve(self, session_key: str, generation: int, reference: str) -> Resolution:
        resolution = await asyncio.to_thread(self.access.resolve, session_key, generation, reference)
        self._still_current(session_key, generation)
        return resolution

    async def preview(self, session_key: str, generation: int, reference: str) -> Preview:
        """Read what the panel needs (the user clicked); "other" (and directories) read nothing: they
        open externally."""
        return await self._preview(session_key, generation, reference, outside_allowed=True)

    async def inline_image(self, session_key: str, generation: int, reference: str) -> Preview:
        """`preview` for an image a reply shows by itself: a file outside the workspace is refused (the
        agent may name any file; only the user's click reads one outside). Checked on the resolution
        and again on what was read, so a swap in between cannot make it read one outside."""
        return await self._preview(session_key, generation, reference, outside_allowed=False)

    async def _preview(
        self, session_key: str, generation: int, reference: str, outside_allowed: bool
    ) -> Preview:
        resolution = await self.resolve(session_key, generation, reference)
        if resolution.outside_workspace and not outside_allowed:
            raise AttachmentError(Refusal.NOT_WITHOUT_A_CLICK)
        document = DOCUMENTS.get(os.path.splitext(resolution.target)[1].lower())
        if document is not None and resolution.kind == "file" and outside_allowed:
            return await self._document(resolution, *document)
        kind = preview_kind(resolution)
        if kind == "other":
            return Preview(resolution, kind, b"", False)
        limit = MAX_IMAGE_BYTES if kind == "image" else MAX_TEXT_BYTES
        if kind == "image" and (resolution.size or 0) > MAX_IMAGE_BYTES:
            return Preview(resolution, "other", b"", True)  # too big to preview: open it instead
        result = await asyncio.to_thread(self.access.read, session_key, generation, reference, limit)
        self._still_current(session_key, generation)
        if result.resolution.outside_workspace and not outside_allowed:
            raise AttachmentError(Refusal.NOT_WITHOUT_A_CLICK)
        if kind == "text" and not looks_like_text(result.data):
            return Preview(result.resolution, "other", b"", False)
        return Preview(result.resolution, kind, result.data, result.truncated)

    async def _document(
        self, resolution: Resolution, kind: PreviewKind, reader: Callable[[bytes], Rendered], limit: int
    ) -> Preview:
        """A document read whole (an HTML page: its first `limit` bytes) and turned into its preview."""
        key, generation, reference = resolution.session_key, resolution.generation, resolution.reference
        if kind != "html" and (resolution.size or 0) > limit:
            return _no_preview(resolution, f"it is larger than {limit // 2**20} MB")
        result = await asyncio.to_thread(self.access.read, key, generation, reference, limit)
        self._still_current(key, generation)
        if result.truncated and kind != "html":
            return _no_preview(result.resolution, f"it is larger than {limit // 2**20} MB")
        try:
            rendered = await asyncio.to_thread(reader, result.data)
        except (DocumentTooLarge, DocumentUnreadable) as why:
            return _no_preview(result.resolution, str(why))
        self._still_current(key, generation)
        note = " ".join(
            filter(None, (rendered.note, "Showing the beginning only." if result.truncated else ""))
        )
        return Preview(result.resolution, kind, rendered.data, result.truncated, rendered.pages, note)

    async def open_target(self, session_key: str, generation: int, reference: str) -> str:
        """The URL to open right now, re-resolved on the click."""
        _resolution, url = await asyncio.to_thread(
            self.access.open_target, session_key, generation, reference
        )
        self._still_current(session_key, generation)
        return url

    async def choose_app(self, session_key: str, generation: int, reference: str) -> bool:
        """The desktop's application chooser for the file the reference names now (re-resolved on the
        click); False when the desktop has none (the window then opens the default app)."""
        resolution = await self._local(session_key, generation, reference)
        return resolution.kind == "file" and await self.opener.choose_app(resolution.target)

    async def show_in_folder(self, session_key: str, generation: int, reference: str) -> bool:
        """The file manager showing the file or folder the reference names now; False when there is
        none (the window then opens the folder itself)."""
        resolution = await self._local(session_key, generation, reference)
        return await self.opener.show_in_folder(resolution.target)

    async def _local(self, session_key: str, generation: int, reference: str) -> Resolution:
        resolution, _url = await asyncio.to_thread(
            self.access.open_target, session_key, generation, reference
        )
        self._still_current(session_key, generation)
        if resolution.kind == "remote":
            raise AttachmentError(
                Refusal.OPERATION_FAILED, f"{resolution.name} is not a file on this computer"
            )
        return resolution


def _no_preview(resolution: Resolution, why: str) -> Preview:
    why = why.rstrip(". ")
    return Preview(resolution, "other", b"", False, note=f"No preview: {why}. Open it with an app instead.")
