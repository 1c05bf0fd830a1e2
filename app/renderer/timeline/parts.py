"""Render parts: what a content block becomes inside a message, thought or tool output.

ACP content blocks map as chat-timeline.md says: text -> markdown; image -> inline image (safe uri,
else a data uri), a user image with a uri -> attachment; resource_link -> pending attachment; resource
with text or a blob -> an embedded attachment showing that content (never the file its uri names),
else with uri -> attachment, without -> unavailable; anything else -> an error part naming the type. Markdown
parts keep their streamed chunks and join lazily, so appending is O(chunk), not O(text).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

from app.contract.ansi import has_escapes
from app.contract.text_pieces import TextPieces
from app.renderer.timeline.media import MediaScanner, is_settled

AttachmentStatus = Literal["pending", "available", "unavailable"]
AttachmentSource = Literal["acp-resource", "acp-embedded", "media-directive", "media-transcript"]
NATIVE_SOURCES = ("acp-resource", "acp-embedded")
COMPATIBILITY_SOURCES = ("media-directive", "media-transcript")  # evidence a native resource outranks
# the text of an embedded resource kept for its preview; the rest is counted, not kept
MAX_EMBEDDED_TEXT_CHARS = 1_000_000
_SAFE_IMAGE_SCHEMES = ("https://", "http://", "file://", "data:image/")
JOIN_CHARS = 1_000_000  # a shorter text is always kept as one string
MERGE_CHARS = 8_000_000  # pieces of a longer text are joined only up to this size (a bounded copy)


def _nonblank(text: str) -> bool:
    """Whether `text` has a character that is not whitespace, without copying it (`strip` copied a
    100 MB chunk)."""
    return bool(text) and not text.isspace()


@dataclass(slots=True, init=False)
class MarkdownPart:
    """Markdown text built from streamed chunks. Chunks wait in a list only until the text is read (it
    joins them once); the text itself is one string: a long history keeps no list per part. A view
    that reads only the start of a long text (`source`) gets its pieces instead, so a 100 MB reply is
    not copied whole each time it grows. Whether it may hold a terminal escape is noted chunk by
    chunk, so a view of an escape-free 100 MB reply never scans the whole text for one."""

    scanner: MediaScanner | None  # assistant prose only: MEDIA directives
    nonblank: bool
    escapes: bool  # a chunk held an escape introducer (a retracted one may leave it set: only "may")
    _joined: str
    _more: list[str] | None  # the pieces after `_joined` of a text read by `source` (None: none)
    _pending: list[str] | None
    kind: Literal["markdown"]

    def __init__(self, chunks: Iterable[str] = (), scanner: MediaScanner | None = None) -> None:
        self._joined = "".join(chunks)
        self._more = None
        self._pending = None
        self.scanner = scanner
        self.nonblank = _nonblank(self._joined)
        self.escapes = has_escapes(self._joined)
        self.kind = "markdown"

    def append(self, text: str) -> None:
        if self.scanner is not None and is_settled(self.scanner):  # a replayed reply grows
            self.scanner = MediaScanner(self.scanner.cwd_known)
            self.scanner.feed(self.text)
        if self._pending is None:
            self._pending = [text]
        else:
            self._pending.append(text)
        if not self.nonblank and _nonblank(text):
            self.nonblank = True
        if not self.escapes and has_escapes(text):
            self.escapes = True
        if self.scanner is not None:
            self.scanner.feed(text)

    def retract(self, count: int) -> None:
        """Take back the last `count` characters (the shown start of a credential a later chunk
        completed; the MEDIA scanner keeps what it saw: a credential is never a directive's path).
        Chunks not yet joined are trimmed in place: the text is copied only when they are too few."""
        pending = self._pending or []
        while count and pending:
            last = pending.pop()
            if len(last) > count:
                pending.append(last[:-count])
                count = 0
            else:
                count -= len(last)
        if count:
            self._pending = None
            joined = self.text
            self._joined = joined[: max(0, len(joined) - count)]
        if pending:
            return
        pieces = [self._joined, *(self._more or ())]
        if not _nonblank(pieces[-1][-1:]):
            self.nonblank = any(_nonblank(piece) for piece in pieces)

    def compact(self) -> None:
        """Keep the text as one string: a replayed message's chunks would each stay an object; and
        its MEDIA scanner only where it found something (else the shared settled one)."""
        if self._pending or self._more:
            self.text  # noqa: B018 - joining is what reading does
        if self.scanner is not None:
            self.scanner = self.scanner.settled()

    @property
    def text(self) -> str:
        if self._pending is not None or self._more is not None:
            pieces = [p for p in (self._joined, *(self._more or ()), *(self._pending or ())) if p]
            self._joined = pieces[0] if len(pieces) == 1 else "".join(pieces)  # one piece is not copied
            self._pending = self._more = None
        return self._joined

    def source(self) -> str | TextPieces:
        """The text for a view that reads its start, its length and a few searches: one string, or for
        a text longer than JOIN_CHARS its pieces, each new stretch joined once and pieces merged only
        while the copy stays under MERGE_CHARS (so no read copies the whole of a huge text)."""
        pending, more = self._pending, self._more
        if pending is None and more is None:
            return self._joined
        size = len(self._joined) + sum(map(len, more or ())) + sum(map(len, pending or ()))
        if size < JOIN_CHARS:
            return self.text
        pieces = [self._joined, *(more or ())]
        if pending:
            pieces.append("".join(pending))
        self._pending = None
        while len(pieces) > 1 and len(pieces[-2]) <= 2 * len(pieces[-1]):
            if len(pieces[-2]) + len(pieces[-1]) > MERGE_CHARS and pieces[-2]:
                break
            last = pieces.pop()
            pieces[-1] += last
        self._joined, self._more = pieces[0], pieces[1:] or None
        return pieces[0] if len(pieces) == 1 else TextPieces(pieces)

    @property
    def chunks(self) -> list[str]:
        """The text as the chunks another part takes in (one, or none when empty)."""
        return [self.text] if self.text else []


@dataclass(frozen=True, slots=True)
class ImagePart:
    uri: str
    mime_type: str | None
    kind: Literal["image"] = "image"


@dataclass(frozen=True, slots=True)
class Embedded:
    """What an embedded `resource` carries itself: the agent's own copy, shown instead of whatever its
    uri names on disk now (the two may differ, and the disk file may be one the agent may not read)."""

    text: str | None  # None for a blob (binary content is counted, not kept)
    size: int  # characters of the text, or bytes of the blob (base64 decoded)
    truncated: bool = False


@dataclass(frozen=True, slots=True)
class Attachment:
    """A reference shown as an attachment card. The renderer's copy is untrusted data: the main side
    re-resolves it for every action."""

    name: str
    uri: str
    source: AttachmentSource = "acp-resource"
    status: AttachmentStatus = "pending"
    mime_type: str | None = None
    size: int | None = None
    title: str | None = None
    reason: str | None = None
    embedded: Embedded | None = None
    image_block: bool = False  # came as an image block naming a file, not as a resource link


@dataclass(frozen=True, slots=True)
class AttachmentPart:
    attachment: Attachment
    kind: Literal["attachment"] = "attachment"


@dataclass(frozen=True, slots=True)
class DiffPart:
    path: str
    old_text: str | None
    new_text: str
    kind: Literal["diff"] = "diff"


@dataclass(frozen=True, slots=True)
class TerminalRefPart:
    terminal_id: str
    kind: Literal["terminal"] = "terminal"


@dataclass(frozen=True, slots=True)
class ErrorPart:
    text: str
    kind: Literal["error"] = "error"


Part = MarkdownPart | ImagePart | AttachmentPart | DiffPart | TerminalRefPart | ErrorPart


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def basename_of(uri: str) -> str:
    """The last path segment of a uri or path, percent-decoded; the uri itself if it has none."""
    try:
        path = urlsplit(uri).path if "://" in uri else uri
    except ValueError:
        path = uri
    name = posixpath.basename(unquote(path).replace("\\", "/").rstrip("/"))
    return name or uri


def _attachment(
    block: dict[str, Any], uri: str | None, source: AttachmentSource = "acp-resource"
) -> Attachment:
    name = _str(block.get("name")) or _str(block.get("title")) or (basename_of(uri) if uri else "attachment")
    size = block.get("size")
    if uri is None:
        return Attachment(name=name, uri="", source=source, status="unavailable", reason="invalid reference")
    return Attachment(
        name=name,
        uri=uri,
        source=source,
        status="pending",
        mime_type=_str(block.get("mimeType")),
        size=size if isinstance(size, int) and not isinstance(size, bool) and size >= 0 else None,
        title=_str(block.get("title")),
    )


def _embedded(resource: dict[str, Any]) -> Embedded | None:
    """The content an embedded resource carries (`text`, else `blob`), or None when it carries none."""
    text = resource.get("text")
    if isinstance(text, str):
        kept = text[:MAX_EMBEDDED_TEXT_CHARS]
        return Embedded(kept, len(text), len(kept) < len(text))
    blob = resource.get("blob")
    if isinstance(blob, str):
        return Embedded(None, len(blob) * 3 // 4)
    return None


def content_to_part(block: Any, role: str) -> Part:
    """One ACP content block -> one part. Never raises: malformed blocks become error parts."""
    if not isinstance(block, dict):
        return ErrorPart(f"Unsupported ACP content block: {type(block).__name__}")
    kind = block.get("type")
    if kind == "text":
        text = block.get("text")
        return MarkdownPart([text] if isinstance(text, str) and text else [])
    if kind == "image":
        uri = _str(block.get("uri"))
        mime = _str(block.get("mimeType"))
        if role == "user" and uri:
            return AttachmentPart(replace(_attachment({"mimeType": mime}, uri), image_block=True))
        if uri and uri.lower().startswith(_SAFE_IMAGE_SCHEMES):
            return ImagePart(uri, mime)
        data = block.get("data")
        if isinstance(data, str) and data and mime and mime.startswith("image/"):
            return ImagePart(f"data:{mime};base64,{data}", mime)
        return ErrorPart("Unsupported ACP content block: image without a usable source")
    if kind == "resource_link":
        return AttachmentPart(_attachment(block, _str(block.get("uri"))))
    if kind == "resource":
        resource = block.get("resource")
        resource = resource if isinstance(resource, dict) else {}
        embedded = _embedded(resource)
        if embedded is None:
            return AttachmentPart(_attachment({**resource, **block}, _str(resource.get("uri"))))
        uri = _str(resource.get("uri")) or ""
        name = _str(block.get("name")) or (basename_of(uri) if uri else "embedded content")
        return AttachmentPart(
            Attachment(
                name=name,
                uri=uri,
                source="acp-embedded",
                status="available",
                mime_type=_str(resource.get("mimeType")),
                embedded=embedded,
            )
        )
    label = kind if isinstance(kind, str) and kind else "unknown"
    return ErrorPart(f"Unsupported ACP content block: {label[:80]}")


def tool_content_to_part(entry: Any) -> Part:
    """One tool-call content entry (content / diff / terminal) -> one part."""
    if not isinstance(entry, dict):
        return ErrorPart("Unsupported tool content")
    kind = entry.get("type")
    if kind == "content":
        return content_to_part(entry.get("content"), "assistant")
    if kind == "diff":
        path = _str(entry.get("path")) or "(unknown file)"
        old = entry.get("oldText")
        new = entry.get("newText")
        return DiffPart(path, old if isinstance(old, str) else None, new if isinstance(new, str) else "")
    if kind == "terminal":
        terminal_id = _str(entry.get("terminalId"))
        if terminal_id:
            return TerminalRefPart(terminal_id)
        return ErrorPart("Terminal content without a terminal id")
    label = kind if isinstance(kind, str) and kind else "unknown"
    return ErrorPart(f"Unsupported tool content: {label[:80]}")


def add_part(parts: list[Part], part: Part, *, join_first_markdown: bool = False) -> None:
    """Append with markdown coalescing: adjacent markdown concatenates; in user segments later text
    joins the FIRST markdown part so prose stays before attachments."""
    if isinstance(part, MarkdownPart):
        target: MarkdownPart | None = None
        if join_first_markdown:
            target = next((p for p in parts if isinstance(p, MarkdownPart)), None)
        elif parts and isinstance(parts[-1], MarkdownPart):
            target = parts[-1]
        if target is not None:
            for chunk in part.chunks:
                target.append(chunk)
            return
    parts.append(part)


def attachments_of(parts: list[Part]) -> tuple[Attachment, ...]:
    """Attachments carried by parts, including MEDIA directives found in assistant markdown."""
    found: list[Attachment] = []
    for part in parts:
        if isinstance(part, AttachmentPart):
            found.append(part.attachment)
        elif isinstance(part, MarkdownPart) and part.scanner is not None:
            found.extend(
                Attachment(name=basename_of(r.ref), uri=r.ref, source="media-directive")
                for r in part.scanner.refs
            )
    return tuple(found)
