"""Hunks of a change and one hunk undone in a file that may have moved on: found next to the same
lines, refused when its own lines were edited or two places fit equally."""

from __future__ import annotations

from app.main.review.hunks import hunks, reverse

OLD = "".join(f"line {n}\n" for n in range(1, 21))


def _edited(text: str, replace: dict[int, str], insert: dict[int, str] | None = None) -> str:
    lines = text.splitlines(keepends=True)
    for number, line in replace.items():
        lines[number - 1] = line
    for number, line in sorted((insert or {}).items(), reverse=True):
        lines.insert(number - 1, line)
    return "".join(lines)


def test_two_separate_changes_are_two_hunks_and_each_undoes_alone():
    new = _edited(OLD, {3: "line three\n", 15: "line fifteen\n"})
    first, second = hunks(OLD, new)
    assert (first.old, first.new) == (("line 3\n",), ("line three\n",))
    assert (second.old_start, second.new) == (14, ("line fifteen\n",))
    assert reverse(new, new, first) == _edited(OLD, {15: "line fifteen\n"})
    assert reverse(new, new, second) == _edited(OLD, {3: "line three\n"})
    assert first.id != second.id and hunks(OLD, new)[0].id == first.id  # stable


def test_a_hunk_is_found_after_lines_were_added_above_it():
    new = _edited(OLD, {15: "line fifteen\n"})
    [hunk] = hunks(OLD, new)
    current = "# a header the user added\n# and another\n" + new
    assert reverse(current, new, hunk) == "# a header the user added\n# and another\n" + OLD


def test_a_hunk_whose_lines_were_edited_since_is_refused():
    new = _edited(OLD, {15: "line fifteen\n"})
    [hunk] = hunks(OLD, new)
    assert reverse(_edited(new, {15: "line fifteen, edited by the user\n"}), new, hunk) is None
    assert reverse(_edited(new, {14: "line 14 edited\n"}), new, hunk) is None  # its neighbour changed


def test_an_insertion_and_a_deletion_undo_by_their_neighbours():
    inserted = _edited(OLD, {}, {5: "new line\n"})
    [hunk] = hunks(OLD, inserted)
    assert hunk.old == () and reverse(inserted, inserted, hunk) == OLD
    deleted = _edited(OLD, {7: ""})
    [hunk] = hunks(OLD, deleted)
    assert hunk.new == () and reverse(deleted, deleted, hunk) == OLD


def test_the_nearest_place_wins_and_two_equally_near_are_refused_not_guessed():
    old, new = "p\na\nx\na\n", "p\na\ny\na\n"
    [hunk] = hunks(old, new)  # made at line 2, between two "a" lines
    nearer = "a\ny\na\nq\nq\na\ny\na\n"  # fits at 1 and at 6: 1 is nearer
    assert reverse(nearer, new, hunk) == "a\nx\na\nq\nq\na\ny\na\n"
    tied = "a\ny\na\ny\na\n"  # fits at 1 and at 3: both one line away
    assert reverse(tied, new, hunk) is None
