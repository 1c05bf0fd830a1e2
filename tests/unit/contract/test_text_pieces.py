"""A long reply read in pieces: every read a view makes of it (length, slice, find, `in`, the visible
source with its dropped `data:` URLs) answers as on the joined string, and a reply that keeps growing
is never copied whole to be read."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.contract.text_pieces import TextPieces
from app.renderer.markdown.limits import DATA_URL_CHARS, visible_source
from app.renderer.timeline.parts import JOIN_CHARS, MERGE_CHARS, MarkdownPart
from app.renderer.timeline.turn_view import item_source, item_text
from tests.unit.timeline.helpers import Harness, agent, user

PIECES = st.lists(st.text(alphabet="ab()\nd:", max_size=12), max_size=8)
NEEDLES = st.sampled_from(["a", "b", ")", "\n", "ab", "ba", "data:", "a(b", "aaa", "d:a"])


@settings(max_examples=400, deadline=None)
@given(PIECES, NEEDLES, st.integers(-3, 40), st.one_of(st.none(), st.integers(-3, 40)))
def test_reads_answer_as_on_the_joined_text(pieces, needle, start, end):
    whole = "".join(pieces)
    text = TextPieces(pieces)
    assert len(text) == len(whole) and str(text) == whole
    assert text.find(needle, start, end) == whole.find(needle, start, end)
    assert (needle in text) is (needle in whole)
    assert text[start:end] == whole[start:end]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab )\n", max_size=9), max_size=6), st.integers(0, 30), st.integers(1, 40))
def test_the_visible_source_is_the_same_from_pieces(pieces, at, limit):
    """A `data:` URL longer than DATA_URL_CHARS put in among the pieces is dropped the same way."""
    url = "![x](data:image/png;base64," + "A" * (DATA_URL_CHARS + 5) + ")"
    short = "![y](data:image/png;base64,AAAA) "  # kept: it is short
    whole = "".join(pieces)
    at = min(at, len(whole))
    joined = whole[:at] + short + whole[:at] + url + whole[at:]
    at = len(whole[:at] + short + whole[:at])
    split = [joined[:at], joined[at : at + 40], joined[at + 40 :]]  # the URL across two pieces
    assert visible_source(TextPieces(split), limit) == visible_source(joined, limit)
    assert visible_source(TextPieces(split), len(joined) + 1) == visible_source(joined, len(joined) + 1)


def test_a_growing_long_reply_is_read_in_pieces_and_never_copied_whole():
    """Past JOIN_CHARS, each read joins only what arrived since the last; pieces merge only up to
    MERGE_CHARS, so the first huge chunk is the very string the agent sent until the whole text is
    asked for (Copy), which joins it once."""
    huge = "x" * (MERGE_CHARS + 1)
    part = MarkdownPart()
    part.append(huge)
    assert part.source() is huge
    for n in range(50):
        part.append(f" more {n}")
        part.append("!")
        source = part.source()
        assert isinstance(source, TextPieces) and source[: len(huge)] == huge
    assert part._joined is huge  # the huge piece itself was never copied
    assert len(source) == len(huge) + sum(len(f" more {n}!") for n in range(50))
    assert part.text == str(source) and part.source() is part.text  # Copy joins once; reads go on
    half = "h" * (MERGE_CHARS // 2 + 1)
    part = MarkdownPart()
    part.append(half)
    part.source()
    part.append("i" * len(half))
    assert isinstance(part.source(), TextPieces) and part._joined is half  # not merged


def test_a_short_reply_is_one_string_and_a_rewritten_one_is_its_item_text():
    """Below JOIN_CHARS a reply stays one string; a reply with an escape or a MEDIA line is read as
    item_text (rewritten), whatever its length."""
    h = Harness()(user("q", "u"), agent("short ", "m"), agent("reply", "m"))
    assert item_source(h.item("m:0")) == "short reply" == item_text(h.item("m:0"))
    long_plain, long_escaped = "y" * JOIN_CHARS, "z" * JOIN_CHARS + "\x1b[1m!"
    h = Harness()(user("q", "u"), agent(long_plain, "a"), agent("+", "a"), agent(long_escaped, "b"))
    assert isinstance(item_source(h.item("a:0")), TextPieces)
    assert str(item_source(h.item("a:0"))) == item_text(h.item("a:0"))
    assert item_source(h.item("b:0")) == item_text(h.item("b:0")) == "z" * JOIN_CHARS + "!"


def test_taking_back_characters_across_pieces_keeps_the_text_and_whether_it_is_blank():
    part = MarkdownPart()
    part.append(" " * JOIN_CHARS)
    part.source()
    part.append("ab")
    assert isinstance(part.source(), TextPieces) and part.nonblank
    part.retract(3)
    assert part.text == " " * (JOIN_CHARS - 1) and not part.nonblank
