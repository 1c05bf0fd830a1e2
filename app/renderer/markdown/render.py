"""Render markdown into display blocks for Qt rich text: prose blocks as HTML, code blocks apart (so the
view can give each a copy button). Raw HTML in agent text is escaped, never rendered, and images become
inert links: a message can never make the view load anything remote."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.tasklists import tasklists_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

from app.renderer.ansi_text import strip_escapes


@dataclass(frozen=True)
class DisplayBlock:
    kind: str  # "html" | "code"
    html: str
    code: str = ""
    lang: str = ""


def _image_as_link(self, tokens: list[Token], idx: int, options, env) -> str:  # type: ignore[no-untyped-def]
    token = tokens[idx]
    src = html.escape(token.attrGet("src") or "", quote=True)
    alt = html.escape(token.content or "image")
    return f'<a href="{src}">[image: {alt}]</a>'


def _make_parser(linkify: bool = True) -> MarkdownIt:
    md = MarkdownIt("gfm-like", {"html": False, "linkify": linkify, "typographer": False})
    if not linkify:
        md.disable("linkify")
    else:
        # only addresses with a scheme (https://, mailto:): a bare "values.py" or "README.md" is a file
        # name in an agent's reply, not a web site in Paraguay or Moldova
        md.linkify.set({"fuzzy_link": False})
    md.use(tasklists_plugin)
    md.add_render_rule("image", _image_as_link)
    return md


_MD = _make_parser()
# The live tail of a streaming reply is re-parsed up to 60 times a second: without autolink detection
# (linkify's pre-test regex dominates the parse); finished blocks and settled replies get it.
_MD_LIVE = _make_parser(linkify=False)
_CHECKBOX = re.compile(r'<input class="task-list-item-checkbox"( checked="checked")?[^>]*>')


def _qt_html(fragment: str) -> str:
    """Adapt markdown-it's HTML to what Qt's rich text draws (checkboxes, table borders)."""
    fragment = _CHECKBOX.sub(lambda m: "\u2611" if m.group(1) else "\u2610", fragment)
    return fragment.replace("<table>", '<table border="1" cellspacing="0" cellpadding="4">')


@lru_cache(maxsize=4)
def _formatter(dark: bool) -> HtmlFormatter:
    return HtmlFormatter(nowrap=True, noclasses=True, style="monokai" if dark else "friendly")


def highlight_code(code: str, lang: str, dark: bool = False) -> str:
    try:
        lexer = get_lexer_by_name(lang) if lang else TextLexer()
    except ClassNotFound:
        lexer = TextLexer()
    body = highlight(code, lexer, _formatter(dark))
    return f"<pre>{body.rstrip()}</pre>"


def _top_level_spans(tokens: list[Token]) -> list[tuple[int, int, Token | None]]:
    """(first token, last token + 1, the fence token or None) for each top-level block."""
    spans: list[tuple[int, int, Token | None]] = []
    depth = 0
    start = 0
    for i, token in enumerate(tokens):
        if depth == 0:
            start = i
        depth += token.nesting
        if depth == 0:
            spans.append((start, i + 1, token if token.type in ("fence", "code_block") else None))
    return spans


def render_blocks(text: str, dark: bool = False, live: bool = False) -> list[DisplayBlock]:
    """All display blocks of `text`; consecutive prose blocks are merged into one HTML block. Terminal
    escape sequences are dropped (prose is no terminal)."""
    text = strip_escapes(text)
    env: dict = {}
    md = _MD_LIVE if live else _MD
    tokens = md.parse(text, env)
    blocks: list[DisplayBlock] = []
    prose: list[Token] = []

    def flush() -> None:
        if prose:
            blocks.append(DisplayBlock("html", _qt_html(md.renderer.render(prose, md.options, env))))
            prose.clear()

    for start, end, fence in _top_level_spans(tokens):
        if fence is not None:
            flush()
            lang = (fence.info or "").strip().split(" ")[0]
            blocks.append(
                DisplayBlock("code", highlight_code(fence.content, lang, dark), fence.content, lang)
            )
        else:
            prose.extend(tokens[start:end])
    flush()
    return blocks


def _last_block_start(text: str) -> int:
    """Character offset where the last top-level block starts (0 when there is one block)."""
    tokens = _MD.parse(text)
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


def _forced_split(tail: str) -> int:
    """Where to cut an over-long live tail that is one endless block (0 = don't): at a line break or a
    space well before the end, never inside an open code fence."""
    if len(tail) <= LIVE_LIMIT or tail.lstrip().startswith(("```", "~~~")):
        return 0
    limit = len(tail) - _KEEP_LIVE
    cut = tail.rfind("\n", 0, limit)
    if cut < LIVE_LIMIT // 2:
        cut = tail.rfind(" ", 0, limit)
    return cut + 1 if cut > 0 else 0


class IncrementalMarkdown:
    """Streaming render: blocks before the last top-level block are final and never re-parsed; each
    update parses only the live tail (Toad's approach). A live tail longer than LIVE_LIMIT that never
    ends its block (one endless paragraph) is cut at a space so per-update work stays bounded; the view
    then shows it as consecutive paragraphs. A text that is not an extension resets. Blocks come back
    unmerged so the view can keep the finished ones untouched (`merge_prose` joins them)."""

    def __init__(self, dark: bool = False) -> None:
        self.dark = dark
        self._source = ""
        self._final: list[DisplayBlock] = []
        self._final_offset = 0
        self.parses = 0  # tail parses, for tests

    def update(self, text: str, live: bool = False) -> list[DisplayBlock]:
        if not text.startswith(self._source[: self._final_offset]):
            self._final, self._final_offset = [], 0
        self._source = text
        tail = text[self._final_offset :]
        self.parses += 1
        boundary = _last_block_start(tail) if "\n\n" in tail or "```" in tail else 0
        if not boundary:
            boundary = _forced_split(tail)
        if boundary:
            self._final.extend(render_blocks(tail[:boundary], self.dark))
            self._final_offset += boundary
            tail = tail[boundary:]
        rendered = render_blocks(tail, self.dark, live=live) if tail.strip() else []
        return [*self._final, *rendered]


def merge_prose(blocks: list[DisplayBlock]) -> list[DisplayBlock]:
    """Join consecutive prose blocks (what one full render would have produced)."""
    merged: list[DisplayBlock] = []
    for block in blocks:
        if merged and block.kind == "html" and merged[-1].kind == "html":
            merged[-1] = DisplayBlock("html", merged[-1].html + block.html)
        else:
            merged.append(block)
    return merged
