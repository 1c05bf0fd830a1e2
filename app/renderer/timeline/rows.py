"""Display rows and the index-based changes the view applies (one-to-one with a Qt list model's
rowsInserted / rowsRemoved / dataChanged). A row is one display block: user prose, its attachments,
an assistant text segment, a thought, a tool card or tool group, a permission, a plan, the turn's lifted
attachments, or the turn footer; `first`/`last` mark the ends of its group."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

RowKind = Literal[
    "user",
    "user-attachments",
    "assistant-text",
    "thought",
    "tool",
    "tool-group",
    "permission",
    "plan",
    "turn-attachments",
    "turn-footer",
]


class Row(NamedTuple):
    """A NamedTuple rather than a frozen dataclass: a 2,000-turn load builds 12,000 of them."""

    key: str
    kind: RowKind
    group_id: str
    item_ids: tuple[str, ...]
    first: bool = False
    last: bool = False


@dataclass(frozen=True)
class RowsInserted:
    start: int
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class RowsRemoved:
    start: int
    count: int


@dataclass(frozen=True)
class RowsChanged:
    """Rows whose content changed (same keys); `rows` are the new row values."""

    start: int
    rows: tuple[Row, ...]


RowChange = RowsInserted | RowsRemoved | RowsChanged


def apply_changes(rows: list[Row], changes: list[RowChange]) -> None:
    """Apply changes in order to a row list (what the Qt model does; tests use it as the oracle)."""
    for change in changes:
        if isinstance(change, RowsInserted):
            rows[change.start : change.start] = change.rows
        elif isinstance(change, RowsRemoved):
            del rows[change.start : change.start + change.count]
        else:
            rows[change.start : change.start + len(change.rows)] = change.rows
