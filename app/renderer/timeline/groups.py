"""The grouping's data: a group (one user message run or one assistant turn) and the blocks of a turn,
and which kind of group and block an item makes. `Grouping` (grouping.py) keeps them in step with the
timeline. Pure: no Qt."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.renderer.timeline.items import Item, MessageSegment, is_user
from app.renderer.timeline.rows import GroupKind, GroupRef, RowKey, RowKind


@dataclass(slots=True)
class Block:
    key: RowKey
    kind: RowKind
    item_ids: tuple[str, ...]  # the same tuple its row holds (one per block, not a list and a copy)


@dataclass(slots=True)
class Group:
    kind: GroupKind
    ref: GroupRef  # named after its first item
    item_ids: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    attachment_items: tuple[str, ...] = ()  # rarely any: no empty list kept per group
    row_start: int = 0
    row_count: int = 0


def block_kind(item: Item) -> RowKind:
    if isinstance(item, MessageSegment):
        return "assistant-text"
    kinds: dict[str, RowKind] = {
        "thought": "thought",
        "tool": "tool",
        "permission": "permission",
        "elicitation": "elicitation",
        "plan": "plan",
        "proposal": "proposal",
    }
    return kinds[item.kind]


def group_kind_of(item: Item) -> GroupKind:
    return "user" if is_user(item) else "assistant"
