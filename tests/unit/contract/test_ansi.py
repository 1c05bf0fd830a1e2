"""Terminal escapes outside terminal cards: a text tool output carrying them is shown by the terminal
screen (colours applied); in prose, titles and copied text they are stripped. Never shown raw."""

from __future__ import annotations

import pytest

from app.contract.ansi import has_escapes, strip_escapes
from app.renderer.markdown.render import render_blocks
from app.renderer.present.tool_card import console_fallback, tool_entry
from app.renderer.timeline.parts import MarkdownPart
from app.renderer.timeline.turn_view import copy_text, item_text
from tests.unit.timeline.helpers import Harness, agent, thought, tool, user


@pytest.mark.parametrize(
    "raw, shown",
    [
        ("\x1b[31mred\x1b[0m plain", "red plain"),
        ("\x1b[1;32mok\x1b[K done", "ok done"),  # colour and erase-line
        ("\x1b]8;;https://x.org\x1b\\link\x1b]8;;\x1b\\", "link"),  # an OSC 8 hyperlink
        ("\x1b]0;window title\x07after", "after"),  # an OSC title ended by BEL
        ("a\x1b(Bb", "ab"),  # charset selection
        ("cut at the end\x1b", "cut at the end"),  # a lone ESC
        ("\x1b[38;5;208morange\x1b[0m", "orange"),
        ("no escapes [31m stay", "no escapes [31m stay"),  # bracket text without ESC is text
    ],
)
def test_escape_sequences_are_stripped_and_their_words_stay(raw, shown):
    assert strip_escapes(raw) == shown


def test_prose_with_escapes_renders_without_them():
    [block] = render_blocks("The run said \x1b[31mFAILED\x1b[0m in `\x1b[1mt.py\x1b[0m`.")
    assert "\x1b" not in block.html and "[31m" not in block.html and "FAILED" in block.html


def test_a_text_tool_output_with_escapes_goes_to_the_terminal_screen_and_its_title_is_clean():
    content = [{"type": "content", "content": {"type": "text", "text": "\x1b[32m3 passed\x1b[0m\n"}}]
    h = Harness()(tool("t", title="\x1b[1mpytest\x1b[0m", kind="execute", content=content))
    item = h.item("tool:t")
    assert console_fallback(item) == "\x1b[32m3 passed\x1b[0m\n"  # the screen applies the colour
    entry = tool_entry(item)
    assert entry["title"] == "pytest" and entry["console"] is not None
    assert "\x1b" not in entry["output"]


def test_plain_tool_output_stays_text():
    content = [{"type": "content", "content": {"type": "text", "text": "3 passed\n"}}]
    h = Harness()(tool("t", kind="execute", content=content))
    assert console_fallback(h.item("tool:t")) is None


def test_copying_a_turn_copies_no_escapes():
    h = Harness()(user("q", "u"), agent("\x1b[31mred\x1b[0m words", "m"))
    assert copy_text(h.timeline.items, h.timeline.grouping.groups[1]) == "red words"


def test_an_escape_in_a_later_chunk_is_stripped_and_escape_free_prose_is_the_text_itself():
    """Each chunk is checked as it arrives, so the view never scans a whole reply for escapes: a reply
    whose chunks held none is shown as the very string the part keeps (no copy, no scan)."""
    h = Harness()(
        user("q", "u"),
        agent("plain ", "m"),
        agent("words ", "m"),
        agent("\x1b[31mred\x1b[0m", "m"),
        thought("think \x9b1mhard", "t"),
        agent("clean reply", "m2"),
    )
    assert item_text(h.item("m:0")) == "plain words red"
    assert item_text(h.item("thought:t")) == "think hard"
    clean = h.item("m2:0")
    part = clean.parts[0]
    assert isinstance(part, MarkdownPart) and not part.escapes
    assert item_text(clean) is part.text
    assert MarkdownPart(["a\x1bb"]).escapes and not MarkdownPart(["plain"]).escapes


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("plain words", False),
        ("colour \x1b[31m", True),
        ("Grüße, 世界", False),  # not ASCII, no introducer
        ("Grüße \x9b31m", True),  # the 8-bit CSI
        ("über \x9d0;title\x07", True),  # the 8-bit OSC
        ("", False),
    ],
)
def test_an_escape_introducer_is_found_in_ascii_and_in_other_text(text, found):
    assert has_escapes(text) is found
