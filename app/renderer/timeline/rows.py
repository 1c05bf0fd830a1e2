"""Display rows, their typed names, and the index-based events a timeline reports (one-to-one with a Qt
list model's rowsInserted / rowsRemoved / dataChanged, plus named metadata changes).

A row is one display block: user prose, its attachments, an assistant text segment, a thought, a tool
card or tool group, a permission, an agent's question, a plan, a proposal card, the turn's lifted
attachments, or the turn footer; `first`/`last` mark the ends of its group. Groups and rows are named
by typed references (`GroupRef`, `RowKey`), never by parsing strings; `str()` of either is its stable
public form (replay JSON, QML).
"""

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
    "elicitation",
    "plan",
    "proposal",
    "turn-attachments",
    "turn-footer",
]
GroupKind = Literal["user", "assistant"]
# where a row sits in its group: the user's prose, the user's attachments, one block of a turn (named
# after its first item), the turn's lifted attachments, the turn's footer
RowSlot = Literal["user", "user-attachments", "block", "turn-attachments", "footer"]
MetaField = Literal["commands", "mode", "config_options", "title", "usage"]


class GroupRef(NamedTuple):
    """A group, named by its kind and the item that leads it."""

    kind: GroupKind
    first_item: str

    def __str__(self) -> str:
        return self.first_item if self.kind == "user" else f"turn:{self.first_item}"


class RowKey(NamedTuple):
    """A row, named by its slot and an item: the block's first item, or the group's for group rows."""

    slot: RowSlot
    item: str

    def __str__(self) -> str:
        return f"{self.slot}:{self.item}"


class Row(NamedTuple):
    """A NamedTuple rather than a frozen dataclass: a 2,000-turn load builds 12,000 of them."""

    key: RowKey
    kind: RowKind
    group: GroupRef
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


@dataclass(frozen=True)
class MetadataChanged:
    """Session metadata that is not a row changed (the header re-reads that field of `timeline.meta`)."""

    field: MetaField


RowChange = RowsInserted | RowsRemoved | RowsChanged
TimelineEvent = RowChange | MetadataChanged


def row_changes(events: list[TimelineEvent]) -> list[RowChange]:
    return [e for e in events if not isinstance(e, MetadataChanged)]


def apply_changes(rows: list[Row], events: list[TimelineEvent]) -> None:
    """Apply row events in order to a row list (what the Qt model does; tests use it as the oracle)."""
    for change in events:
        if isinstance(change, RowsInserted):
            rows[change.start : change.start] = change.rows
        elif isinstance(change, RowsRemoved):
            del rows[change.start : change.start + change.count]
        elif isinstance(change, RowsChanged):
            rows[change.start : change.start + len(change.rows)] = change.rows
