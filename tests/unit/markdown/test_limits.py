"""The bounds on what a reply hands the markdown parser and Qt's layout (app/renderer/markdown/limits.py)
and how the renderer uses them: oversized inline data dropped before parsing, break opportunities in
unbroken runs (layout only), pieces, table caps, a long reply read at once shown in parts while a
stream is shown whole, and "Show more" in the row's block model."""

from __future__ import annotations

import re

from app.renderer.markdown import limits
from app.renderer.markdown.limits import (
    MORE_CHARS,
    QUIET_CHARS,
    RUN_CHARS,
    TABLE_CELLS,
    TABLE_COLUMNS,
    break_runs,
    piece_end,
    visible_source,
)
from app.renderer.markdown.render import render_blocks
from app.renderer.markdown.streaming import IncrementalMarkdown
from app.renderer.qt.conversation.block_model import BlockListModel
from tests.agents.hostile_prompts import hostile_text

TAGS = re.compile(r"<[^>]*>")


def _text_of(blocks) -> str:
    """The characters a reader sees in rendered blocks (tags and zero-width breaks removed)."""
    return "".join(
        TAGS.sub("", b.html).replace("\u200b", "").replace("\n", "") for b in blocks if b.kind == "html"
    )


def _shown_count(label: str) -> int:
    return int(label.split(" of ")[0].replace(",", ""))


# --- inline data ----------------------------------------------------------------------------------------
def test_an_ordinary_reply_passes_through_untouched():
    text = "Hello **world**, see ![dot](data:image/png;base64,iVBORw0KGgo=) and more.\n"
    assert visible_source(text) == (text, 0)
    short = "plain words " * 100
    assert visible_source(short)[0] is short  # no copy for the common case


def test_an_oversized_data_url_is_dropped_before_parsing_and_leaves_a_visible_marker():
    huge = "A" * (10 * 1024 * 1024)
    text = f"Before ![chart](data:image/png;base64,{huge}) after."
    source, hidden = visible_source(text)
    assert hidden == 0
    assert len(source) < 200
    assert source.startswith("Before ![chart](clawqt-omitted:") and source.endswith(") after.")
    blocks = render_blocks(text)
    html = "".join(b.html for b in blocks)
    assert "AAAA" not in html and len(html) < 500
    assert "[image: chart \u2014 not shown, 10.5 MB of inline data]" in html
    assert "after." in html


def test_a_data_url_still_arriving_is_dropped_once_it_is_too_long():
    start = "![x](data:image/png;base64,"
    assert visible_source(start + "A" * 100) == (start + "A" * 100, 0)  # short so far: kept
    source, _ = visible_source(start + "A" * (limits.DATA_URL_CHARS + 10))
    assert source == f"![x]({limits.OMITTED}{len('data:image/png;base64,') + limits.DATA_URL_CHARS + 10}"


def test_the_rendered_source_is_capped_and_the_rest_counted():
    text = "word " * 10_000
    source, hidden = visible_source(text, 1000)
    assert source == text[:1000] and hidden == len(text) - 1000


# --- unbroken runs --------------------------------------------------------------------------------------
def test_unbroken_runs_get_zero_width_breaks_outside_tags_and_entities():
    run = "x" * 200
    html = f'<p><a href="https://example.com/{run}">{run}</a> &lt;{"&amp;" * 100}</p>'
    broken = break_runs(html)
    assert f'href="https://example.com/{run}"' in broken  # attributes untouched
    assert broken.replace("\u200b", "") == html
    text = re.sub(r"&\w+;", "e", TAGS.sub("", broken))  # an entity is one character
    assert all(len(part) <= RUN_CHARS for piece in text.split() for part in piece.split("\u200b"))
    assert "&am\u200b" not in broken and "&\u200b" not in broken  # entities stay whole
    prose = "<p>" + "ordinary words in a sentence " * 50 + "</p>"
    assert break_runs(prose) == prose


def test_a_reply_without_spaces_renders_in_bounded_pieces_with_its_characters_kept():
    text = hostile_text("unbroken-50")
    blocks = render_blocks(text)
    assert _text_of(blocks) == text
    laid_out = TAGS.sub("", "".join(b.html for b in blocks))
    assert max(len(run) for run in re.split(r"[\s\u200b]", laid_out)) <= RUN_CHARS


# --- pieces ---------------------------------------------------------------------------------------------
def test_pieces_end_at_a_blank_line_a_line_a_space_or_anywhere():
    para = ("word " * 30 + "\n") * 10
    text = (para + "\n") * 20
    cut = piece_end(text, 3000)
    assert 1500 <= cut <= 3000 and text[:cut].endswith("\n\n")
    assert piece_end("0123456789" * 1000, 3000) == 3000  # no break at all: at the limit
    spaced = "abc " * 2000
    assert spaced[: piece_end(spaced, 3000)].endswith(" ")


def test_an_open_code_block_is_not_cut_while_it_is_short_enough():
    code = "```python\n" + "x = 1\n" * 2000
    assert piece_end(code, 3000) == 0
    closed = code + "```\n\nafter\n"
    end = piece_end(closed, 3000)
    assert closed[:end].endswith("```\n")


# --- tables ---------------------------------------------------------------------------------------------
def test_a_table_shows_its_first_columns_and_cells_and_says_what_is_left_out():
    columns = TABLE_COLUMNS + 30
    rows = ["| " + " | ".join(f"h{n}" for n in range(columns)) + " |", "|" + "---|" * columns]
    rows += ["| " + " | ".join(f"r{r}c{n}" for n in range(columns)) + " |" for r in range(3)]
    html = "".join(b.html for b in render_blocks("\n".join(rows) + "\n"))
    assert f"h{TABLE_COLUMNS - 1}<" in html and f"h{TABLE_COLUMNS}<" not in html
    assert "\u2026 30 more columns" in html and "r2c0" in html

    body = TABLE_CELLS // 3 + 7  # a three-column table with more cells than are shown
    rows = ["| a | b | c |", "|---|---|---|"] + [f"| r{r} | x | y |" for r in range(body)]
    html = "".join(b.html for b in render_blocks("\n".join(rows) + "\n"))
    shown = TABLE_CELLS // 3 - 1  # the header row counts
    assert f">r{shown - 1}<" in html and f">r{shown}<" not in html
    assert f"\u2026 {body - shown} more rows not shown" in html
    assert html.count("<table") == 1  # one table, not cut into pieces


def test_a_long_table_stays_one_table_across_pieces():
    rows = ["| name | value |", "|---|---|"] + [f"| row {r} | {'v' * 40} |" for r in range(400)]
    text = "Intro line\n" + "\n".join(rows) + "\nafter the table\n"
    blocks = render_blocks(text)
    html = "".join(b.html for b in blocks)
    assert html.count("<table") == 1 and ">row 0<" in html


def test_a_ten_thousand_level_list_renders_a_bounded_document():
    blocks = render_blocks(hostile_text("nested")[:200_000])
    assert sum(len(b.html) for b in blocks) < 400_000
    assert "level" in _text_of(blocks)


def test_raw_html_stays_escaped_text():
    html = "".join(b.html for b in render_blocks("<div>" * 500))
    assert "<div>" not in html and "&lt;div&gt;" in html


# --- parts of a long reply ------------------------------------------------------------------------------
def test_a_long_reply_read_at_once_shows_its_start_and_a_more_block():
    text = hostile_text("links")
    renderer = IncrementalMarkdown()
    blocks = renderer.update(text)
    assert blocks[-1].kind == "more"
    first = _shown_count(blocks[-1].html)
    assert QUIET_CHARS * 0.9 <= first <= QUIET_CHARS
    assert blocks[-1].html.endswith(f" of {len(text):,} characters shown (Copy takes all).")
    assert "link 0" in _text_of(blocks) and "link 700" not in _text_of(blocks)
    more = renderer.show_more()
    assert more[: len(blocks) - 2] == blocks[:-2]  # what was shown stays (but the last, cut piece)
    assert first + MORE_CHARS * 0.9 <= _shown_count(more[-1].html) <= first + MORE_CHARS
    assert "link 700" in _text_of(more)
    assert renderer.update(text) == more  # a refresh shows what was shown, no more, no less


def test_a_stream_is_shown_whole_however_long():
    text = hostile_text("unbroken-200") + " end"
    renderer = IncrementalMarkdown()
    for size in range(24_000, len(text) + 24_000, 24_000):  # what a streaming build reveals at most
        blocks = renderer.update(text[:size], live=True)
        assert blocks[-1].kind != "more"
    blocks = renderer.update(text + " the last words")  # the turn ends
    assert _text_of(blocks) == text + " the last words"
    assert renderer.update(text + " the last words") == blocks


def test_a_stream_without_spaces_keeps_its_live_tail_bounded():
    renderer = IncrementalMarkdown()
    text = ""
    for _ in range(100):
        text += "0123456789abcdef" * 125
        blocks = renderer.update(text, live=True)
        assert len(blocks[-1].html) < 2 * limits.PIECE_CHARS


def test_show_more_in_the_block_model_and_a_stale_refresh_keeps_it(qapp):
    text = hostile_text("autolinks")
    renderer = IncrementalMarkdown()
    first = renderer.update(text)
    entries = [{"kind": b.kind, "html": b.html, "code": b.code, "lang": b.lang} for b in first]
    model = BlockListModel(None, entries)
    model.showMore(len(entries) - 1)
    grown = model.blocks
    assert len(grown) > len(entries)
    model.apply(entries)  # a refresh that still carries the first render
    assert model.blocks == grown
    model.showMore(0)  # not a "more" block: nothing happens
    assert model.blocks == grown
