"""Find on a huge row (pure): a text counted a window at a time has the whole text's count, a scan reads
one window per step however long a row is, and only the hits under the cap are made."""

from __future__ import annotations

from collections.abc import Generator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.renderer.timeline import search, search_count
from app.renderer.timeline.search import MAX_HITS, Hit, SearchScan, Span
from app.renderer.timeline.search_count import WINDOW_CHARS, counting, overlaps_itself
from tests.agents.find_prompts import find_text
from tests.unit.timeline.helpers import Harness, agent, settled, tool, user

# case pairs, a capital sigma (its lower case depends on its neighbours), a dotted capital I (two
# characters lowered), a combining dot and an apostrophe (case-ignorable), a space
ALPHABET = ["a", "A", "b", "\u03a3", "\u03c3", "\u03c2", "\u0130", "i", "\u0307", "'", " "]


def _count(text: str, needle: str, window: int) -> int:
    steps: Generator[None, None, int] = counting(text, needle, window)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


@settings(max_examples=600, deadline=None)
@given(
    text=st.text(alphabet=ALPHABET, max_size=80),
    needle=st.text(alphabet=ALPHABET, min_size=1, max_size=5),
    window=st.integers(min_value=1, max_value=17),
)
def test_counting_in_windows_equals_the_whole_text_count_for_any_window(text, needle, window):
    needle = needle.lower()
    assert _count(text, needle, window) == text.lower().count(needle)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("a" * 1_001, "aa"),  # every window ends inside a run the needle overlaps itself in
        ("ab" * 700 + "a", "aba"),
        ("aab" * 500, "aab"),
        ("A" * 999, "aaa"),
        ("x" * 50 + "\u03a3" + "'" * 10 + "x", "\u03c3'"),  # a sigma decided by a letter past the window
    ],
)
def test_self_overlapping_needles_count_alike_across_every_window_boundary(text, needle):
    expected = text.lower().count(needle)
    assert [_count(text, needle, window) for window in range(1, 40)] == [expected] * 39


def test_which_needles_overlap_themselves():
    assert [overlaps_itself(n) for n in ("a", "ab", "aa", "aba", "abab", "abc", "aab")] == [
        False,
        False,
        True,
        True,
        True,
        False,
        False,
    ]


def test_a_huge_reply_is_counted_a_window_per_step_and_only_the_kept_hits_are_made(monkeypatch):
    body = find_text(3)  # 3 Mi characters, 2.5 million of them "a"
    total = body.count("a")
    h = Harness()(user("the question", "u1"), agent(body, "a1"), settled("a1"))
    made: list[tuple] = []
    monkeypatch.setattr(search, "Hit", lambda *fields: made.append(fields) or Hit(*fields))
    read: list[int] = []
    lowered = search_count.lowered
    monkeypatch.setattr(
        search_count,
        "lowered",
        lambda text, start, end, context=0: read.append(end - start) or lowered(text, start, end, context),
    )

    scan = SearchScan(h.timeline, "A")
    steps = 0
    while not scan.done:
        read.clear()
        scan.advance(0.0)  # one step, whatever the budget
        steps += 1
        assert sum(read) <= WINDOW_CHARS, "a step read more than a window of the reply"
        if not scan.done:
            assert scan.hits == []  # the reply's hits are numbered from its top: made once it is counted

    assert steps >= len(body) // WINDOW_CHARS
    assert len(scan.hits) == MAX_HITS and scan.capped
    assert len(made) == MAX_HITS  # never a hit object for an occurrence past the cap
    reply = scan.hits[0].row
    # newest first: the reply's last occurrence is hit 0, numbered from the reply's top
    assert [hit.occurrence for hit in scan.hits[:2]] == [total - 1, total - 2]
    assert scan.hits[-1] == Hit(reply, scan.hits[0].item_id, "text", total - MAX_HITS)
    assert scan.spans[reply] == (Span(scan.hits[0].item_id, "text", 0, total),)


def test_a_kept_hit_is_placed_among_the_matches_its_row_draws_also_under_the_cap(monkeypatch):
    monkeypatch.setattr(search, "MAX_HITS", 3)
    output = [{"type": "content", "content": {"type": "text", "text": "needle " * 5}}]
    h = Harness()(tool("t1", title="needle needle", status="completed", content=output))
    scan = SearchScan(h.timeline, "needle")
    while not scan.done:
        scan.advance(1.0)
    # the row's seven: the title's two, then the output's five; the three nearest its bottom are kept
    assert [(hit.field, hit.occurrence) for hit in scan.hits] == [("output", 6), ("output", 5), ("output", 4)]
    # the card draws the output's matches only (titles get no mark): the 5th, 4th and 3rd it draws
    drawn = [scan.drawn_index(hit, frozenset({"output"}), hit.item_id) for hit in scan.hits]
    assert drawn == [4, 3, 2]
