"""The explicit `MEDIA:` directive (chat-timeline.md, "Attachments"), in ClawX's grammar: a whole line
`MEDIA: <ref>` in assistant text (the keyword in any case, any indentation), outside fenced code, naming
exactly one reference. Such lines are hidden from the prose and become marked compatibility attachments.

Whitespace here is JavaScript's `\\s` (ClawX's grammar is a JavaScript regular expression), so a line means
the same to both clients.

`MediaScanner` applies the grammar incrementally to streamed text (each chunk is scanned once), so a
long streamed reply costs O(its length) in total, not O(length^2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_REF_CHARS = 4096
_WS_CHARS = (
    "\t\n\v\f\r \u00a0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
WHITESPACE = re.escape(_WS_CHARS)  # JavaScript's \s, for a character class
_KEYWORD = "media:"  # compared case-insensitively, after any indentation
_LEAD = re.compile(f"[{WHITESPACE}]*")
# ClawX takes any indentation before `MEDIA:`; past this many whitespace characters a line is prose here
# (a reply of 100 MB of indentation was scanned to its end, line by line, on the GUI thread)
MAX_INDENT = 256
_ANY_KEYWORD = re.compile("media:", re.IGNORECASE)
_FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})(?P<rest>.*)$")
_FENCE_CLOSE_REST = re.compile(r"[ \t]*")
_SIGNIFICANT = ("```", "~~~")  # what a fence line starts with, after at most 3 spaces
_NONBLANK = re.compile(r"\S")
_BAD_START = tuple("`*_[(<{")
_BAD_END = tuple("]>)}`*")
_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True)
class MediaRef:
    """One accepted reference: `ref` as written, `kind` says how to resolve it."""

    ref: str
    kind: str  # "url" | "file-uri" | "absolute" | "home" | "windows" | "relative"


def classify_ref(ref: str, cwd_known: bool) -> str | None:
    """The reference kind, or None when the grammar rejects it."""
    lowered = ref.lower()
    if lowered.startswith(("http://", "https://")):
        host = ref.split("://", 1)[1].lstrip("/\\")
        return "url" if host and host[0] not in "?#" else None
    if lowered.startswith("file://"):
        return "file-uri"
    if _SCHEME.match(ref) and not _DRIVE.match(ref):
        return None  # another scheme
    if ref.startswith(("/", "~/")) or _DRIVE.match(ref):
        return "absolute" if ref[0] == "/" else "home" if ref[0] == "~" else "windows"
    return "relative" if cwd_known else None


def _after_keyword(line: str) -> str | None:
    """What follows `MEDIA:` (any indentation before it, any case), or None when the line is no
    directive. Plain string operations: a lazy regular expression over a long line of spaces is
    quadratic."""
    start = _LEAD.match(line, 0, MAX_INDENT + 1).end()  # type: ignore[union-attr]
    if start > MAX_INDENT or line[start : start + len(_KEYWORD)].lower() != _KEYWORD:
        return None
    return line[start + len(_KEYWORD) :]


def parse_directive(line: str, cwd_known: bool = True) -> MediaRef | None:
    """The reference of a `MEDIA:` line, or None if the line is not a valid directive."""
    rest = _after_keyword(line)
    if rest is None:
        return None
    raw = rest.strip(_WS_CHARS)
    if not raw:
        return None
    if raw[0] in "\"'":
        if len(raw) < 2 or raw[-1] != raw[0]:
            return None
        ref = raw[1:-1]
    else:
        if any(ch in _WS_CHARS for ch in raw):
            return None  # exactly one reference: unquoted refs hold no spaces
        ref = raw
    if not ref or len(ref) > MAX_REF_CHARS or ref.startswith(_BAD_START) or ref.endswith(_BAD_END):
        return None
    kind = classify_ref(ref, cwd_known)
    return MediaRef(ref, kind) if kind is not None else None


class _Fence:
    """Tracks fenced code: opens with >= 3 backticks/tildes indented <= 3 spaces; closes with the same
    character, at least as long, nothing but spaces after."""

    __slots__ = ("char", "length")

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
                and _FENCE_CLOSE_REST.fullmatch(match.group("rest"))
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
    line carries visible prose, and the refs found. Each chunk is looked at once. The unfinished last
    line is kept only while it could still be a fence line or a directive (judged by its first
    characters after the indentation); a would-be directive has its long runs of whitespace shortened
    (which changes no parse) and is dropped once too long to be one, so one endless line costs O(its
    length) and a read of `refs` at most O(`_MAX_DIRECTIVE_LINE`)."""

    _RUN = MAX_REF_CHARS + 3  # whitespace runs longer than a quoted reference are shortened to this
    _MAX_DIRECTIVE_LINE = 4 * _RUN + len(_KEYWORD)  # indentation, keyword, gap, reference, tail
    _LONG_RUN = re.compile(f"[{WHITESPACE}]{{{_RUN + 1},}}")
    __slots__ = (  # one per assistant prose part, kept with it: no per-instance dict
        "_complete_refs",
        "_fence",
        "_partial",
        "_partial_head",
        "_partial_indent",
        "_partial_indent_len",
        "_partial_kind",
        "_partial_len",
        "_partial_nonblank",
        "_prose_lines",
        "cwd_known",
        "has_directive",
    )

    # the line not ended yet (`_reset_partial` sets them)
    _partial: list[str] | tuple[()]
    _partial_len: int
    _partial_indent: str
    _partial_indent_len: int
    _partial_head: str
    _partial_kind: str
    _partial_nonblank: bool

    def __init__(self, cwd_known: bool = True) -> None:
        self.cwd_known = cwd_known
        # made when first needed: most replies have no fence, no directive and no pending line, and a
        # scanner stays with its reply as long as the chat is shown
        self._fence: _Fence | None = None
        self._complete_refs: list[MediaRef] | tuple[()] = ()
        self._prose_lines = 0  # 1 once a line of prose was seen
        self.has_directive = False
        self._reset_partial()

    def feed(self, chunk: str) -> None:
        newline = chunk.find("\n")
        if newline < 0:
            self._extend_partial(chunk)
            return
        if self._partial_kind == "plain":
            if not self._prose_lines and (self._partial_nonblank or _NONBLANK.search(chunk, 0, newline)):
                self._prose_lines = 1
        else:
            self._take(("".join(self._partial) + chunk[:newline]).rstrip("\r"))
        self._reset_partial()
        start = newline + 1
        while (newline := chunk.find("\n", start)) >= 0:
            self._take_at(chunk, start, newline)
            start = newline + 1
        self._extend_partial(chunk[start:])

    def _take_at(self, chunk: str, start: int, end: int) -> None:
        """The complete line chunk[start:end], copied only when its start could make it a fence line or
        a directive (a chunk of 100 MB in long lines is not copied line by line)."""
        lead = _LEAD.match(chunk, start, min(end, start + MAX_INDENT + 1)).end()  # type: ignore[union-attr]
        if lead - start <= MAX_INDENT and _could_matter(
            chunk[start:lead], chunk[lead : lead + len(_KEYWORD)]
        ):
            self._take(chunk[start:end].rstrip("\r"))
        elif not self._prose_lines and _NONBLANK.search(chunk, start, end):
            self._prose_lines = 1  # neither a fence line nor a directive: prose if not blank

    def _extend_partial(self, chunk: str) -> None:
        if not chunk:
            return
        if not self._partial_nonblank and not chunk.isspace():  # (not empty here)
            self._partial_nonblank = True
        if self._partial_kind == "plain":
            return
        if not self._partial_head:
            room = MAX_INDENT + 1 - self._partial_indent_len
            lead = _LEAD.match(chunk, 0, room).end()  # type: ignore[union-attr]
            self._partial_indent += chunk[:lead] if len(self._partial_indent) < 4 else ""
            self._partial_indent_len += lead
            if self._partial_indent_len > MAX_INDENT:  # indented too deep to be a directive or a fence
                self._partial_kind = "plain"
                self._partial = ()
                return
            self._partial_head = chunk[lead : lead + len(_KEYWORD)]
        elif len(self._partial_head) < len(_KEYWORD):
            self._partial_head += chunk[: len(_KEYWORD) - len(self._partial_head)]
        if self._partial_head:
            head = self._partial_head
            if not _could_matter(self._partial_indent[:4], head, partial=True):
                self._partial_kind = "plain"  # neither a fence line nor a directive: only prose
                self._partial = ()
                return
            self._partial_kind = "fence" if head.startswith(("`", "~")) else "directive"
        if isinstance(self._partial, list):
            self._partial.append(chunk)
        else:
            self._partial = [chunk]
        self._partial_len += len(chunk)
        if self._partial_kind == "directive" and self._partial_len > 2 * self._MAX_DIRECTIVE_LINE:
            self._shorten()

    def _shorten(self) -> None:
        """Shorten the would-be directive's whitespace runs; drop it once too long to be one."""
        text = self._LONG_RUN.sub(" " * self._RUN, "".join(self._partial))
        if len(text) > self._MAX_DIRECTIVE_LINE:
            self._partial_kind = "plain"
            self._partial = ()
            return
        self._partial = [text]
        self._partial_len = len(text)

    def _reset_partial(self) -> None:
        self._partial = ()
        self._partial_len = 0
        self._partial_indent = ""  # the first few characters of indentation
        self._partial_indent_len = 0
        self._partial_head = ""  # the first characters after the indentation
        self._partial_kind = ""  # "" (only whitespace yet) | "fence" | "directive" | "plain"
        self._partial_nonblank = False

    def _take(self, line: str) -> None:
        if self._fence is None and _FENCE.match(line) is None:
            in_fence = False  # no fence is open and this line opens none
        else:
            if self._fence is None:
                self._fence = _Fence()
            in_fence = self._fence.feed(line)
        ref = None if in_fence else parse_directive(line, self.cwd_known)
        if ref is not None:
            if isinstance(self._complete_refs, list):
                self._complete_refs.append(ref)
            else:
                self._complete_refs = [ref]
            self.has_directive = True
        elif not self._prose_lines and line.strip():  # only whether there is any prose matters
            self._prose_lines = 1

    def _partial_ref(self) -> MediaRef | None:
        if (self._fence is not None and self._fence.open) or self._partial_kind != "directive":
            return None
        if self._partial_len > self._MAX_DIRECTIVE_LINE:
            self._shorten()
            if self._partial_kind != "directive":
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

    def settled(self) -> MediaScanner:
        """This scanner, or for a reply that saw prose and no directive the one shared scanner that
        says the same (`refs` empty, `has_prose`): a replayed history keeps no scanner per reply. A
        reply that grows again is scanned afresh (`MarkdownPart.append`)."""
        if self.refs or not self.has_prose:
            return self
        return _SETTLED[self.cwd_known]


class _SettledScanner(MediaScanner):
    """What a scanner that saw prose and no directive answers, shared by every such reply."""

    __slots__ = ()

    @property
    def refs(self) -> tuple[MediaRef, ...]:
        return ()

    @property
    def has_prose(self) -> bool:
        return True

    def settled(self) -> MediaScanner:
        return self

    def feed(self, chunk: str) -> None:
        raise RuntimeError("a settled scanner is shared: the reply gets a fresh one before it grows")


_SETTLED = {True: _SettledScanner(True), False: _SettledScanner(False)}


def is_settled(scanner: MediaScanner) -> bool:
    """Whether this is a shared scanner of a finished reply (replaced by a fresh one to be fed)."""
    return isinstance(scanner, _SettledScanner)


def _could_matter(indent: str, head: str, partial: bool = False) -> bool:
    """Whether a line with this indentation and these first characters after it could be a fence line
    (at most 3 spaces, then ``` or ~~~) or a directive (any indentation, then `MEDIA:` in any case).
    With `partial`, `head` may be only the start of what follows (the line is still streaming)."""
    lowered = head.lower()
    if _KEYWORD.startswith(lowered) if partial and len(head) < len(_KEYWORD) else lowered == _KEYWORD:
        return True
    if len(indent) > 3 or indent.strip(" "):
        return False
    if partial and len(head) < 3:
        return any(marker.startswith(head) for marker in _SIGNIFICANT)
    return head.startswith(_SIGNIFICANT)


def strip_directives(text: str, cwd_known: bool = True) -> tuple[str, tuple[MediaRef, ...]]:
    """The prose without directive lines, and the refs in order (whole-text form of the scanner)."""
    if not _ANY_KEYWORD.search(text):
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
