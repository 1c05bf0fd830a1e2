"""Streaming Markdown: a reply rendered as it grows, each update parsing only its live tail (the blocks
before its last top-level block are final and kept), with "Show more" for what the limits hold back.
The one render of a piece is render.py's; this module decides which pieces are rendered when."""

from __future__ import annotations

import itertools
import weakref

from app.contract.ansi import strip_escapes
from app.contract.text_pieces import TextPieces
from app.renderer.markdown.limits import (
    MESSAGE_CHARS,
    MORE_CHARS,
    PIECE_CHARS,
    QUIET_CHARS,
    STEP_CHARS,
    piece_end,
    visible_source,
)
from app.renderer.markdown.render import DisplayBlock, more_block, parser, render_piece


def _last_block_start(text: str) -> int:
    """Character offset where the last top-level block starts (0 when there is one block)."""
    tokens = parser(True).parse(text)  # autolinks are inline: the block structure is the same without them
    starts = [t.map[0] for t in tokens if t.level == 0 and t.map is not None and t.nesting >= 0]
    if len(starts) < 2:
        return 0
    line = starts[-1]
    offset = 0
    for _ in range(line):
        offset = text.index("\n", offset) + 1
    return offset


LIVE_LIMIT = 6000  # characters of live tail re-parsed (and re-laid out by the view) per update
_KEEP_LIVE = 1500
_RENDERERS: weakref.WeakValueDictionary[str, IncrementalMarkdown] = weakref.WeakValueDictionary()
_KEYS = itertools.count(1)


class IncrementalMarkdown:
    """Streaming render: blocks before the last top-level block are final and never re-parsed; each
    update parses only the live tail (Toad's approach). A live tail longer than LIVE_LIMIT that never
    ends its block (one endless paragraph, a run without a single space) is cut into pieces so per-update
    work stays bounded; the view then shows it as consecutive paragraphs. A text that is not an
    extension resets. Blocks come back unmerged so the view can keep the finished ones untouched
    (`merge_prose` joins them).

    How much source is rendered: a streaming update (and the one that ends a stream) at most STEP_CHARS
    more than the one before (a streaming build reveals less, so a stream is always shown whole), up
    to MESSAGE_CHARS in all; any other update what was shown already, or QUIET_CHARS for a reply read
    at once (from history, or a burst whose turn ended before it was drawn). The rest is a "more"
    block; "Show more" (`show_more`) renders the next MORE_CHARS. Nothing else makes a shown reply
    grow."""

    def __init__(self, dark: bool = False) -> None:
        self.dark = dark
        self.expansions = 0  # "Show more" clicks (names the render a "more" block belongs to)
        self._shown = 0  # source characters rendered by the last update
        self._allowed = 0  # source characters that may be rendered without streaming or a click
        self._streamed = False  # the last update was a streaming one
        self._source = ""
        self._final: list[DisplayBlock] = []
        self._final_offset = 0
        self._text: str | TextPieces = ""
        self._last: list[DisplayBlock] = []
        self.key = str(next(_KEYS))
        _RENDERERS[self.key] = self
        self.parses = 0  # tail parses, for tests

    def update(self, text: str | TextPieces, live: bool = False) -> list[DisplayBlock]:
        self._text = text
        if live or self._streamed:  # a stream, or the update that ends one
            limit = min(max(MESSAGE_CHARS, self._allowed), self._shown + STEP_CHARS)
        else:
            limit = max(self._allowed, QUIET_CHARS)
        self._streamed = live
        source, hidden = visible_source(text, limit)
        self._shown = len(source)
        self._allowed = max(self._allowed, self._shown)
        source = strip_escapes(source)
        if not source.startswith(self._source[: self._final_offset]):
            self._final, self._final_offset = [], 0
        self._source = source
        tail = source[self._final_offset :]
        self.parses += 1
        while len(tail) > LIVE_LIMIT:
            cut = piece_end(tail, min(PIECE_CHARS, len(tail) - _KEEP_LIVE))
            if not cut:
                break
            self._finish(tail[:cut])
            tail = tail[cut:]
        boundary = _last_block_start(tail) if "\n\n" in tail or "```" in tail else 0
        if boundary:
            self._finish(tail[:boundary])
            tail = tail[boundary:]
        rendered = render_piece(tail, self.dark, live) if tail.strip() else []
        more = [more_block(hidden, len(text), f"{self.key}/{self.expansions}")] if hidden else []
        self._last = [*self._final, *rendered, *more]
        return self._last

    def _finish(self, piece: str) -> None:
        self._final.extend(render_piece(piece, self.dark, False))
        self._final_offset += len(piece)

    def show_more(self) -> list[DisplayBlock]:
        """Render MORE_CHARS more of the text (what was shown stays as it is)."""
        self._allowed = self._shown + MORE_CHARS
        self.expansions += 1
        return self.update(self._text, False)

    @property
    def blocks(self) -> list[DisplayBlock]:
        return self._last


def renderer_of(key: str) -> IncrementalMarkdown | None:
    """The live renderer a "more" block names (`key/expansions`), if it still exists."""
    return _RENDERERS.get(key.split("/", 1)[0])
