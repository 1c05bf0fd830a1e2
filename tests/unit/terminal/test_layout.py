"""The terminal panel's split panes as pure data: where a split goes, what closing a pane leaves, and
which tab keeps its place."""

from __future__ import annotations

import pytest

from app.renderer.terminal.layout import PaneLayout, placed


def test_a_terminal_without_a_split_is_a_tab_of_its_own():
    layout = PaneLayout()
    assert layout.add("t1") == "t1"
    assert layout.add("t2", split_of=None) == "t2"
    assert layout.add("t3", split_of="gone") == "t3"  # its pane closed first: a tab
    assert layout.tabs() == ["t1", "t2", "t3"]
    assert layout.tree("t2") == {"pane": "t2"}


@pytest.mark.parametrize(
    ("direction", "expected"),
    [
        ("right", {"orientation": "row", "first": {"pane": "t1"}, "second": {"pane": "t2"}}),
        ("left", {"orientation": "row", "first": {"pane": "t2"}, "second": {"pane": "t1"}}),
        ("down", {"orientation": "column", "first": {"pane": "t1"}, "second": {"pane": "t2"}}),
        ("up", {"orientation": "column", "first": {"pane": "t2"}, "second": {"pane": "t1"}}),
    ],
)
def test_a_split_goes_on_its_direction(direction, expected):
    layout = PaneLayout()
    layout.add("t1")
    assert layout.add("t2", split_of="t1", direction=direction) == "t1"
    assert layout.tabs() == ["t1"]
    assert layout.tree("t1") == expected


def test_auto_splits_a_wide_pane_to_the_right_and_a_tall_one_below():
    assert placed("auto", 80, 24) == ("row", False)
    assert placed("auto", 40, 40) == ("column", False)
    assert placed("sideways", 80, 24) == ("row", False)  # anything else is auto


def test_splits_nest_where_they_were_made_and_panes_read_in_order():
    layout = PaneLayout()
    layout.add("t1")
    layout.add("t2", split_of="t1", direction="right")
    layout.add("t3", split_of="t2", direction="down")
    assert layout.tree("t1") == {
        "orientation": "row",
        "first": {"pane": "t1"},
        "second": {"orientation": "column", "first": {"pane": "t2"}, "second": {"pane": "t3"}},
    }
    assert layout.panes("t1") == ["t1", "t2", "t3"]
    assert layout.tab_of("t3") == "t1"


def test_closing_a_pane_gives_its_place_to_its_sibling_and_the_tab_keeps_its_position():
    layout = PaneLayout()
    layout.add("t1")
    layout.add("t2", split_of="t1", direction="right")
    layout.add("t3", split_of="t2", direction="down")
    layout.add("t4")
    assert layout.remove("t2") == "t1"
    assert layout.tree("t1") == {"orientation": "row", "first": {"pane": "t1"}, "second": {"pane": "t3"}}
    assert layout.remove("t1") == "t3"  # the tab's first pane closed: it goes on under the next
    assert layout.tabs() == ["t3", "t4"]
    assert layout.tree("t3") == {"pane": "t3"}
    assert layout.remove("t3") is None
    assert layout.tabs() == ["t4"]
    assert layout.remove("unknown") is None
    assert layout.tree("t3") == {}


def test_a_terminal_added_twice_stays_where_it_is():
    layout = PaneLayout()
    layout.add("t1")
    layout.add("t2", split_of="t1")
    assert layout.add("t2", split_of="t1") == "t1"
    assert layout.panes("t1") == ["t1", "t2"]
