"""Render markdown into display blocks for Qt rich text: prose blocks as HTML, code blocks apart (so the
view can give each a copy button). Raw HTML in agent text is escaped, never rendered, and images become
inert links: a message can never make the view load anything remote. markdown-it and Pygments are
imported on the first render, not before the window's first frame (an empty chat needs neither)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from app.contract.ansi import strip_escapes
from app.renderer.markdown import highlighters
from app.renderer.markdown.autolinks import scheme_links
from app.renderer.markdown.limits import (
    MESSAGE_CHARS,
    OMITTED,
    TABLE_CELLS,
    TABLE_COLUMNS,
    break_runs,
    piece_end,
    size_label,
    visible_source,
)

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from pygments.formatters import HtmlFormatter


@dataclass(frozen=True)
class DisplayBlock:
    kind: str  # "html" | "code" | "more" (what is not shown; `lang` names the renderer to ask for more)
    html: str
    code: str = ""
    lang: str = ""
    # a code block still streaming: its last lines, not highlighted yet, shown under `html` (its
    # highlighted first lines) so each update lays out only these lines, not the whole block again
    tail: str = ""

    def entry(self) -> dict[str, str]:
        """The block as the view's block model holds it."""
        return {"kind": self.kind, "html": self.html, "code": self.code, "lang": self.lang, "tail": self.tail}


def block_entries(blocks: list[DisplayBlock]) -> list[dict[str, str]]:
    """Blocks as the view's block model holds them (the presenter's payloads, "Show more")."""
    return [block.entry() for block in blocks]


def _image_as_link(self, tokens: list[Token], idx: int, options, env) -> str:
    token = tokens[idx]
    raw = str(token.attrGet("src") or "")
    alt = html.escape(token.content or "image")
    if raw.startswith(OMITTED):  # an inline image too large to keep: only a marker is left of it
        size = size_label(int(raw[len(OMITTED) :] or 0))
        return f"<i>[image: {alt} \u2014 not shown, {size} of inline data]</i>"
    src = html.escape(raw, quote=True)
    return f'<a href="{src}">[image: {alt}]</a>'


@lru_cache(maxsize=2)
def parser(live: bool) -> MarkdownIt:
    """The parser for finished text, or for a live tail: a streaming reply's tail is re-parsed up to 60
    times a second, so without autolink detection (linkify's pre-test regex dominates the parse);
    finished blocks and settled replies get it."""
    return _make_parser(linkify=not live)


def _make_parser(linkify: bool = True) -> MarkdownIt:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.tasklists import tasklists_plugin

    md = MarkdownIt("gfm-like", {"html": False, "linkify": linkify, "typographer": False})
    if not linkify:
        md.disable("linkify")
    else:
        # only addresses with a scheme (https://, mailto:): a bare "values.py" or "README.md" is a file
        # name in an agent's reply, not a web site in Paraguay or Moldova
        assert md.linkify is not None, "linkify-it-py is a dependency (markdown-it-py[linkify])"
        md.linkify.set({"fuzzy_link": False})
        md.inline.ruler.at("linkify", scheme_links)  # the same links, without linkify-it's cost
    md.use(tasklists_plugin)
    md.add_render_rule("image", _image_as_link)
    return md


_CHECKBOX = re.compile(r'<input class="task-list-item-checkbox"( checked="checked")?[^>]*>')


@dataclass(frozen=True)
class ProseColours:
    """What Qt's rich text cannot take from the window's palette: a quote's bar and a table's lines
    (every prose block is rendered again when the theme changes). No cell shading: Qt Quick's text
    draws a cell's background only behind its text, a band rather than a shaded header."""

    rule: str


LIGHT_PROSE = ProseColours(rule="#d0d7de")
DARK_PROSE = ProseColours(rule="#4a5059")


# The prose type scale (harness/reference/design-system.md): a reading leading of 22 on 14, a paragraph's
# space after it, headings a step or two above the body instead of Qt's double size. Sizes are Qt's
# steps relative to the text's own font (x-large is 1.5 times it, large 1.2), so they follow the text
# size setting; Qt's rich text reads no `em` or percentage font size. Kept out of the blocks (they are
# merged and compared): a view that shows prose puts it first (TextBlocks.qml via `app.proseStyle`).
PROSE_STYLE = (
    "<style>p, li { line-height: 157% } p { margin-top: 0; margin-bottom: 12px } li { margin-bottom: 4px }"
    " h1, h2, h3, h4 { font-weight: 600; margin-bottom: 8px } h1 { font-size: x-large; margin-top: 20px }"
    " h2 { font-size: large; margin-top: 16px } h3, h4 { font-size: medium; margin-top: 12px }"
    " th { text-align: left; font-weight: 600 }</style>"
)


def _qt_html(fragment: str, dark: bool = False) -> str:
    """Adapt markdown-it's HTML to what Qt's rich text draws: checkboxes as characters, tables with
    single lines, and quotes with a bar (Qt draws no left border on a block, so a quote is a table whose
    first, narrow cell is the bar). The view puts `PROSE_STYLE` before it, once per text it shows."""
    colours = DARK_PROSE if dark else LIGHT_PROSE
    fragment = _CHECKBOX.sub(lambda m: "\u2611" if m.group(1) else "\u2610", fragment)
    fragment = fragment.replace(
        "<blockquote>",
        '<table cellspacing="0" cellpadding="0" style="margin-top:4px; margin-bottom:4px">'
        f'<tr><td width="3" bgcolor="{colours.rule}"></td><td style="padding-left:10px">',
    ).replace("</blockquote>", "</td></tr></table>")
    return fragment.replace(
        "<table>",
        f'<table border="1" cellspacing="0" cellpadding="6" style="border-color:{colours.rule}; '
        'border-style:solid; border-collapse:collapse; margin-top:4px; margin-bottom:4px">',
    )


@lru_cache(maxsize=4)
def _formatter(dark: bool) -> HtmlFormatter:
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(nowrap=True, noclasses=True, style="github-dark" if dark else "default")


def highlight(code: str, lexer: Any, formatter: HtmlFormatter) -> str:
    """Pygments' highlight, imported on first use."""
    from pygments import highlight as pygments_highlight

    return pygments_highlight(code, lexer, formatter)


_PRE = '<pre style="margin-bottom:0">'  # the view pads below the code (a streaming tail follows it)


def highlight_code(code: str, lang: str, dark: bool = False) -> str:
    return f"{_PRE}{highlight(code, highlighters.lexer(lang), _formatter(dark)).rstrip()}</pre>"


@lru_cache(maxsize=8)
def _highlighted_lines(code: str, lang: str, dark: bool) -> str:
    return highlight(code, highlighters.lexer(lang), _formatter(dark))


def _checkpoint(lines: int) -> int:
    """The largest of 0, 1, 2, ... 8, 10, 12, 15, 18, 22, ... (each a quarter more than the one before)
    not above `lines`: highlighting again only at these counts costs a growing block about five times
    its size in all, where highlighting at every line cost its size squared."""
    mark = 0
    while True:
        following = mark + max(1, mark // 4)
        if following > lines:
            return mark
        mark = following


def highlight_growing(code: str, lang: str, dark: bool = False) -> tuple[str, str]:
    """A code block still streaming: (its first lines highlighted, the lines after them not yet).
    The first lines are highlighted again only when the complete lines reach the next checkpoint
    (highlighting the whole block on every chunk was most of a streaming reply's cost); between two,
    an update changes only the plain tail, which the view lays out alone. Until the language's lexer is
    built (off this thread: `highlighters`) every line is in the plain tail."""
    mark = _checkpoint(code.count("\n")) if highlighters.ready(lang) else 0
    done = 0
    for _ in range(mark):
        done = code.index("\n", done) + 1
    head = f"{_PRE}{_highlighted_lines(code[:done], lang, dark).rstrip()}</pre>" if done else ""
    rest = code[done:].rstrip("\n")
    # the same <pre> font as the head, no gap above it
    tail = (
        f'<pre style="margin-top:0; margin-bottom:0">{html.escape(rest, quote=False)}</pre>' if rest else ""
    )
    return head, tail


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


def _cap_tables(tokens: list[Token]) -> list[Token]:
    """Tables show at most TABLE_COLUMNS columns and TABLE_CELLS cells (body rows beyond are left out);
    marker cells say what is missing (Qt lays a table out in time that grows with its cells)."""
    if not any(t.type == "table_open" for t in tokens):
        return tokens
    kept: list[Token] = []
    column = rows = columns = left_out = 0
    skipping = 0  # nesting depth of a cell or row being left out
    for token in tokens:
        if skipping:
            skipping += token.nesting
            continue
        if token.type == "tr_open":
            column = 0
            if columns and rows * min(columns, TABLE_COLUMNS) >= TABLE_CELLS:
                left_out += 1
                skipping = 1
                continue
            rows += 1
        elif token.type in ("th_open", "td_open"):
            column += 1
            if column > TABLE_COLUMNS:
                skipping = 1
                continue
        elif token.type == "tr_close":
            columns = max(columns, column)
            if column > TABLE_COLUMNS:
                kept.extend(_marker_cell(f"\u2026 {column - TABLE_COLUMNS} more columns"))
        elif token.type == "table_close":
            if left_out:
                kept.extend(_marker_row(f"\u2026 {left_out} more rows not shown"))
            rows = columns = left_out = 0
        kept.append(token)
    return kept


def _marker_cell(text: str) -> list[Token]:
    from markdown_it.token import Token

    cell = Token("td_open", "td", 1)
    inline = Token("inline", "", 0, content=text, children=[Token("text", "", 0, content=text)])
    return [cell, inline, Token("td_close", "td", -1)]


def _marker_row(text: str) -> list[Token]:
    from markdown_it.token import Token

    return [Token("tr_open", "tr", 1), *_marker_cell(text), Token("tr_close", "tr", -1)]


UNDERLINED_LINKS = 40  # links in one block drawn underlined; past that, in the link colour alone
_ANCHOR = "<a href="
_PLAIN_ANCHOR = '<a style="text-decoration: none" href='


def plain_dense_links(fragment: str) -> str:
    """A block of more than UNDERLINED_LINKS links draws them without their underlines. Qt draws each
    underline as a node of its own, which the software renderer walks on every frame: a reply of 50,000
    links took 40-50 ms a frame even scrolled away from them, and a list of links reads as one anyway."""
    if fragment.count(_ANCHOR) <= UNDERLINED_LINKS:
        return fragment
    return fragment.replace(_ANCHOR, _PLAIN_ANCHOR)


def render_piece(text: str, dark: bool, live: bool) -> list[DisplayBlock]:
    env: dict = {}
    md = parser(live)
    tokens = _cap_tables(md.parse(text, env))
    blocks: list[DisplayBlock] = []
    prose: list[Token] = []

    def flush() -> None:
        if prose:
            fragment = plain_dense_links(_qt_html(md.renderer.render(prose, md.options, env), dark))
            blocks.append(DisplayBlock("html", break_runs(fragment)))
            prose.clear()

    for start, end, fence in _top_level_spans(tokens):
        if fence is not None:
            flush()
            lang = (fence.info or "").strip().split(" ")[0]
            if live:
                head, tail = highlight_growing(fence.content, lang, dark)
                blocks.append(DisplayBlock("code", head, fence.content, lang, tail))
            else:
                blocks.append(
                    DisplayBlock("code", highlight_code(fence.content, lang, dark), fence.content, lang)
                )
        else:
            prose.extend(tokens[start:end])
    flush()
    return blocks


def render_blocks(
    text: str, dark: bool = False, live: bool = False, limit: int = MESSAGE_CHARS
) -> list[DisplayBlock]:
    """All display blocks of `text`; consecutive prose blocks are merged into one HTML block. Terminal
    escape sequences are dropped (prose is no terminal). A long text is parsed in pieces of about
    PIECE_CHARS (bounding what one parse costs); beyond `limit` characters a "more" block says what is
    not shown."""
    source, hidden = visible_source(text, limit)
    source = strip_escapes(source)
    blocks: list[DisplayBlock] = []
    while source:
        end = piece_end(source) or len(source)
        blocks.extend(render_piece(source[:end], dark, live))
        source = source[end:]
    if hidden:
        blocks.append(more_block(hidden, len(text)))
    return merge_prose(blocks)


def more_block(hidden: int, total: int, key: str = "") -> DisplayBlock:
    """The marker for what is not shown; with `key`, its "Show more" asks that renderer for more."""
    label = f"{total - hidden:,} of {total:,} characters shown (Copy takes all)."
    return DisplayBlock("more", label, "", key)


def merge_prose(blocks: list[DisplayBlock]) -> list[DisplayBlock]:
    """Join consecutive prose blocks (what one full render would have produced)."""
    merged: list[DisplayBlock] = []
    for block in blocks:
        if merged and block.kind == "html" and merged[-1].kind == "html":
            merged[-1] = DisplayBlock("html", merged[-1].html + block.html)
        else:
            merged.append(block)
    return merged
