"""The terminal panel's tabs and their split panes: which tab each terminal is shown in and how the
tab's panes are laid out, built from the terminals' infos in the order they arrive.

A terminal that names a `split_of` still open becomes a pane beside it (on its direction; auto: beside
a wide pane, below a tall one); any other terminal is a tab of its own. A tab is known by its first
pane; when that pane closes the tab keeps its place under the next one. Pure: no Qt, no I/O."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Literal

from app.contract.user_terminals import SIDES

Orientation = Literal["row", "column"]  # row: side by side; column: one above the other


@dataclass(frozen=True)
class Pane:
    terminal_id: str


@dataclass(frozen=True)
class Split:
    orientation: Orientation
    first: Node
    second: Node


Node = Pane | Split


def placed(direction: str, columns: int, rows: int) -> tuple[Orientation, bool]:
    """(orientation, whether the new pane comes first) for a split on `direction` of a pane of that
    many cells; a cell is about twice as tall as wide, so 80 x 24 is wide and splits to the right."""
    if direction not in SIDES:
        direction = "right" if columns >= 2 * rows else "down"
    return ("row" if direction in ("right", "left") else "column"), direction in ("left", "up")


class PaneLayout:
    def __init__(self) -> None:
        self._trees: dict[str, Node] = {}  # tab id (its first pane) -> its panes, in tab order
        self._touched: dict[str, int] = {}  # when each pane was last used: a tab reopens on it
        self._touches = itertools.count(1)

    def touch(self, terminal_id: str) -> None:
        """The pane the keyboard went to."""
        self._touched[terminal_id] = next(self._touches)

    def last_used(self, tab: str) -> str:
        """The pane of `tab` used last (its first pane when none was); "" for an unknown tab."""
        return max(self.panes(tab), key=lambda pane: self._touched.get(pane, 0), default="")

    def tabs(self) -> list[str]:
        return list(self._trees)

    def tab_of(self, terminal_id: str) -> str | None:
        for tab, tree in self._trees.items():
            if terminal_id in panes_of(tree):
                return tab
        return None

    def panes(self, tab: str) -> list[str]:
        """The tab's panes, left to right and top to bottom."""
        tree = self._trees.get(tab)
        return panes_of(tree) if tree is not None else []

    def add(
        self,
        terminal_id: str,
        split_of: str | None = None,
        direction: str = "auto",
        size: tuple[int, int] = (80, 24),
    ) -> str:
        """Place a terminal (beside `split_of` when that one is shown, of `size` cells); its tab."""
        tab = self.tab_of(split_of) if split_of else None
        if tab is None or self.tab_of(terminal_id) is not None:
            self._trees.setdefault(terminal_id, Pane(terminal_id))
            return self.tab_of(terminal_id) or terminal_id
        assert split_of is not None
        orientation, first = placed(direction, *size)
        self._trees[tab] = _replaced(self._trees[tab], split_of, orientation, Pane(terminal_id), first)
        return tab

    def remove(self, terminal_id: str) -> str | None:
        """Take a terminal out; the tab it was in (under its new id), None when the tab is gone."""
        tab = self.tab_of(terminal_id)
        self._touched.pop(terminal_id, None)
        if tab is None:
            return None
        rest = _without(self._trees[tab], terminal_id)
        if rest is None:
            del self._trees[tab]
            return None
        new_tab = panes_of(rest)[0] if tab == terminal_id else tab
        self._trees = {(new_tab if key == tab else key): (rest if key == tab else tree)
                       for key, tree in self._trees.items()}  # fmt: skip
        return new_tab

    def tree(self, tab: str) -> dict[str, Any]:
        """The tab's layout as nested maps for the view: `{"pane": id}` or `{"orientation", "first",
        "second"}`; {} for an unknown tab."""
        node = self._trees.get(tab)
        return _as_map(node) if node is not None else {}


def panes_of(node: Node) -> list[str]:
    if isinstance(node, Pane):
        return [node.terminal_id]
    return panes_of(node.first) + panes_of(node.second)


def _replaced(node: Node, target: str, orientation: Orientation, new: Pane, first: bool) -> Node:
    if isinstance(node, Pane):
        if node.terminal_id != target:
            return node
        return Split(orientation, new, node) if first else Split(orientation, node, new)
    return Split(
        node.orientation,
        _replaced(node.first, target, orientation, new, first),
        _replaced(node.second, target, orientation, new, first),
    )


def _without(node: Node, terminal_id: str) -> Node | None:
    if isinstance(node, Pane):
        return None if node.terminal_id == terminal_id else node
    first, second = _without(node.first, terminal_id), _without(node.second, terminal_id)
    if first is None or second is None:
        return first or second
    return Split(node.orientation, first, second)


def _as_map(node: Node) -> dict[str, Any]:
    if isinstance(node, Pane):
        return {"pane": node.terminal_id}
    return {"orientation": node.orientation, "first": _as_map(node.first), "second": _as_map(node.second)}
