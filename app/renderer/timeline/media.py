"""The explicit `MEDIA:` directive (chat-timeline.md, "Attachments"): a whole line `MEDIA: <ref>` in
assistant text, outside fenced code, naming exactly one reference. Such lines are hidden from the prose
and become marked compatibility attachments.

`MediaScanner` applies the grammar incrementally to streamed text (each chunk is scanned once), so a
long streamed reply costs O(its length) in total, not O(length^2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_REF_CHARS = 4096
_DIRECTIVE = re.compile(r"^[ \t]{0,3}MEDIA:[ \t]*(?P<ref>.*?)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})(?P<rest>.*)$")
_SIGNIFICANT = ("MEDIA:", "```", "~~~")  # what a fence line or a directive starts with, after indentation
_NONBLANK = re.compile(r"\S")
_BAD_START = tuple("`*_[(<{")
_BAD_END = tuple("]>)}`*")
_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")


@dataclass(frozen=True)
class MediaRef:
    """One accepted reference: `ref` as written, `kind` says how to resolve it."""

    ref: str
    kind: str  # "url" | "file-uri" | "absolute" | "home" | "windows" | "relative"


def classify_ref(ref: str, cwd_known: bool) -> str | None:
    """The reference kind, or None when the grammar rejects it."""
    lowered = ref.lower()
    if lowered.startswith(("http://", "https://")):
        return "url" if len(ref.split("://", 1)[1]) > 0 else None
    if lowered.startswith("file://"):
        return "file-uri"
    if ref.startswith("/"):
        return "absolute"
    if ref.startswith("~/"):
        return "home"
    if _DRIVE.match(ref):
        return "windows"
    if "://" in ref or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", ref):
        return None  # another scheme
    return "relative" if cwd_known else None


def parse_directive(line: str, cwd_known: bool = True) -> MediaRef | None:
    """The reference of a `MEDIA:` line, or None if the line is not a valid directive."""
    match = _DIRECTIVE.match(line)
    if match is None:
        return None
    raw = match.group("ref")
    if not raw:
        return None
    if raw[0] in "\"'":
        quote = raw[0]
        if len(raw) < 2 or raw[-1] != quote or quote in raw[1:-1]:
            return None
        ref = raw[1:-1]
        if not ref.strip():
            return None
    else:
        if any(ch.isspace() for ch in raw):
            return None  # exactly one reference: unquoted refs hold no spaces
        ref = raw
    if len(ref) > MAX_REF_CHARS or ref.startswith(_BAD_START) or ref.endswith(_BAD_END):
        return None
    kind = classify_ref(ref, cwd_known)
    return MediaRef(ref, kind) if kind is not None else None


class _Fence:
    """Tracks fenced code: opens with >= 3 backticks/tildes indented <= 3 spaces; closes with the same
    character, at least as long, nothing but spaces after."""

    def __init__(self) -> None:
        self.char = ""
        self.length = 0

    @property
    def open(self) -> bool:
        return self.length > 0

    def feed(self, line: str) -> bool:
        """Process one complete line; True if the line is part of a fence (opener, body or closer)."""
        match = _FENCE.match(line)
        if self.open:
            if (
                match
                and match.group("fence")[0] == self.char
                and len(match.group("fence")) >= self.length
                and not match.group("rest").strip()
            ):
                self.char, self.length = "", 0
            return True
        if match:
            fence = match.group("fence")
            if fence[0] == "`" and "`" in match.group("rest"):
                return False  # an info string with a backtick is not a fence opener
            self.char, self.length = fence[0], len(fence)
            return True
        return False


class MediaScanner:
    """Incremental scan of one growing text: which complete lines are directives, whether any other
    line carries visible prose, and the refs found. Each chunk is looked at once: the unfinished last
    line is kept as chunks with a running "non-blank" flag, and only joined when it could still be a
    directive (it starts like one and is short enough), so one endless line costs O(its length)."""

    _HEAD = 16
    _MAX_DIRECTIVE_LINE = MAX_REF_CHARS + 32

    def __init__(self, cwd_known: bool = True) -> None:
        self.cwd_known = cwd_known
        self._fence = _Fence()
        self._partial: list[str] = []
        self._partial_len = 0
        self._partial_head = ""
        self._partial_nonblank = False
        self._complete_refs: list[MediaRef] = []
        self._prose_lines = 0  # 1 once a line of prose was seen
        self.has_directive = False

    def feed(self, chunk: str) -> None:
        newline = chunk.find("\n")
        if newline < 0:
            self._extend_partial(chunk)
            return
        first = "".join(self._partial) + chunk[:newline]
        self._reset_partial()
        self._take(first.rstrip("\r"))
        start = newline + 1
        while (newline := chunk.find("\n", start)) >= 0:
            self._take_at(chunk, start, newline)
            start = newline + 1
        self._extend_partial(chunk[start:])

    def _take_at(self, chunk: str, start: int, end: int) -> None:
        """The complete line chunk[start:end], copied only when its start could make it a fence line or
        a directive (a chunk of 100 MB in long lines is not copied line by line)."""
        head = chunk[start : min(end, start + self._HEAD)]
        body = head.lstrip(" \t")
        if len(head) - len(body) <= 3 and body.startswith(_SIGNIFICANT):
            self._take(chunk[start:end].rstrip("\r"))
        elif not self._prose_lines and _NONBLANK.search(chunk, start, end):
            self._prose_lines = 1  # neither a fence line nor a directive: prose if not blank

    def _extend_partial(self, chunk: str) -> None:
        if not chunk:
            return
        self._partial.append(chunk)
        self._partial_len += len(chunk)
        if len(self._partial_head) < self._HEAD:
            self._partial_head = (self._partial_head + chunk)[: self._HEAD]
        if not self._partial_nonblank and chunk.strip():
            self._partial_nonblank = True

    def _reset_partial(self) -> None:
        self._partial = []
        self._partial_len = 0
        self._partial_head = ""
        self._partial_nonblank = False

    def _take(self, line: str) -> None:
        in_fence = self._fence.feed(line)
        ref = None if in_fence else parse_directive(line, self.cwd_known)
        if ref is not None:
            self._complete_refs.append(ref)
            self.has_directive = True
        elif not self._prose_lines and line.strip():  # only whether there is any prose matters
            self._prose_lines = 1

    def _partial_ref(self) -> MediaRef | None:
        if self._fence.open or not self._partial_nonblank or self._partial_len > self._MAX_DIRECTIVE_LINE:
            return None
        if not self._partial_head.lstrip(" \t").startswith("MEDIA:"[: len(self._partial_head.lstrip(" \t"))]):
            return None
        text = "".join(self._partial)
        self._partial = [text]
        return parse_directive(text.rstrip("\r"), self.cwd_known)

    @property
    def refs(self) -> tuple[MediaRef, ...]:
        partial = self._partial_ref()
        if not self._complete_refs and partial is None:
            return ()
        return tuple(self._complete_refs) + ((partial,) if partial else ())

    @property
    def has_prose(self) -> bool:
        if self._prose_lines:
            return True
        return self._partial_nonblank and self._partial_ref() is None


def strip_directives(text: str, cwd_known: bool = True) -> tuple[str, tuple[MediaRef, ...]]:
    """The prose without directive lines, and the refs in order (whole-text form of the scanner)."""
    if "MEDIA:" not in text:
        return text, ()
    fence = _Fence()
    kept: list[str] = []
    refs: list[MediaRef] = []
    for line in text.split("\n"):
        in_fence = fence.feed(line.rstrip("\r"))
        ref = None if in_fence else parse_directive(line.rstrip("\r"), cwd_known)
        if ref is None:
            kept.append(line)
        else:
            refs.append(ref)
    return "\n".join(kept), tuple(refs)


MAX_TRANSCRIPT_MEDIA = 32


def transcript_media(meta: object) -> list[str]:
    """Media references in OpenClaw's transcript form, when an agent passes it along in a message's
    `_meta`: `openclawDelivery.mediaUrls` (strings) and `openclawDisplayContent` image entries
    (`{type: "image", url}`). OpenClaw strips `MEDIA:` lines from the streamed text and keeps the media
    only there. Anything malformed is skipped; at most 32 references per message."""
    if not isinstance(meta, dict):
        return []
    found: list[str] = []
    delivery = meta.get("openclawDelivery")
    urls = delivery.get("mediaUrls") if isinstance(delivery, dict) else None
    for url in urls if isinstance(urls, list) else []:
        if isinstance(url, str) and url.strip() and len(url) <= MAX_REF_CHARS:
            found.append(url.strip())
    display = meta.get("openclawDisplayContent")
    for entry in display if isinstance(display, list) else []:
        if isinstance(entry, dict) and entry.get("type") == "image":
            url = entry.get("url")
            if isinstance(url, str) and url.strip() and len(url) <= MAX_REF_CHARS:
                found.append(url.strip())
    unique = list(dict.fromkeys(found))
    return unique[:MAX_TRANSCRIPT_MEDIA]
