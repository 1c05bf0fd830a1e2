"""Render-time grouping of the flat timeline into display rows, maintained incrementally.

Groups: consecutive user segments form a user group; everything between user groups is one assistant
turn (items before the first user item still make a turn). Grouping never looks at messageId,
toolCallId or `_meta`. Inside a turn, each visible item is a block row in item order, except that
consecutive tool calls share one tool-group row; attachments of every item are lifted into one
`turn-attachments` row after all blocks; a `turn-footer` row ends every turn (timing, copy).

Incremental contract: `appended`, `changed` and `removed` are told about each item event and return
index-based row changes. Appending to or patching inside the last turn costs O(1); structural changes
(an item gains or loses visibility or attachments, a user segment is removed and two turns merge)
regroup only the affected groups.
"""

from __future__ import annotations

from app.renderer.timeline.groups import Block, Group, block_kind, group_kind_of
from app.renderer.timeline.items import Item, ToolCall
from app.renderer.timeline.parts import Attachment
from app.renderer.timeline.rows import (
    GroupRef,
    Row,
    RowChange,
    RowKey,
    RowKind,
    RowsChanged,
    RowsInserted,
    RowsRemoved,
)


class Grouping:
    """Groups, blocks and rows of one timeline, kept in step with its items."""

    def __init__(self, items: dict[str, Item]) -> None:
        self.items = items
        self.groups: list[Group] = []
        self.group_of: dict[str, Group] = {}
        self.block_of: dict[str, Block] = {}
        self.rows: list[Row] = []
        # the attachments each item had when it was placed, kept only for the few that have any (an
        # assistant item's visibility then is whether it has a block: `block_of`)
        self._attachments: dict[str, tuple[Attachment, ...]] = {}

    # --- building ------------------------------------------------------------------------------
    def _new_group(self, item_id: str) -> Group:
        kind = group_kind_of(self.items[item_id])
        return Group(kind=kind, ref=GroupRef(kind, item_id))

    def _compute_blocks(self, group: Group) -> None:
        group.blocks = []
        group.attachment_items = ()
        growing: list[str] = []  # the last block's items while it can grow (a tuple grown item by item
        for item_id in group.item_ids:  # would make a turn of many tool calls quadratic)
            self._classify(group, item_id, growing)
        if group.blocks:
            group.blocks[-1].item_ids = tuple(growing)

    def _classify(self, group: Group, item_id: str, growing: list[str] | None = None) -> None:
        """Record visibility/attachments and place the item in a block (assistant turns). With
        `growing` (a whole group being classified) the last block's items collect there instead."""
        item = self.items[item_id]
        visible = item.visible
        attachments = item.attachments
        if attachments:
            self._attachments[item_id] = attachments
            group.attachment_items += (item_id,)
        else:
            self._attachments.pop(item_id, None)
        if group.kind == "user":
            return
        self.block_of.pop(item_id, None)
        if not visible:
            return
        last = group.blocks[-1] if group.blocks else None
        if isinstance(item, ToolCall) and last is not None and last.kind in ("tool", "tool-group"):
            if growing is None:
                last.item_ids += (item_id,)
            else:
                growing.append(item_id)
            last.kind = "tool-group"
        else:
            if growing is not None:
                if last is not None:
                    last.item_ids = tuple(growing)
                growing[:] = [item_id]
            last = Block(RowKey("block", item_id), block_kind(item), (item_id,))
            group.blocks.append(last)
        self.block_of[item_id] = last

    def _rows_of(self, group: Group) -> list[Row]:
        specs: list[tuple[RowKey, RowKind, tuple[str, ...]]]
        lead = group.ref.first_item
        if group.kind == "user":
            specs = [(RowKey("user", lead), "user", tuple(group.item_ids))]
            if group.attachment_items:
                specs.append((RowKey("user-attachments", lead), "user-attachments", group.attachment_items))
        else:
            specs = [(b.key, b.kind, b.item_ids) for b in group.blocks]
            if group.attachment_items:
                specs.append((RowKey("turn-attachments", lead), "turn-attachments", group.attachment_items))
            specs.append((RowKey("footer", lead), "turn-footer", ()))
        last = len(specs) - 1
        return [
            Row(key, kind, group.ref, ids, first=i == 0, last=i == last)
            for i, (key, kind, ids) in enumerate(specs)
        ]

    def rebuild(self, order: list[str]) -> list[RowChange]:
        """Group everything from scratch (loads): one removal of all old rows, one insertion."""
        old_count = len(self.rows)
        self.groups, self.group_of, self.block_of = [], {}, {}
        self._attachments = {}
        current: Group | None = None
        for item_id in order:
            kind = group_kind_of(self.items[item_id])
            if current is None or current.kind != kind:
                current = self._new_group(item_id)
                self.groups.append(current)
            current.item_ids.append(item_id)
            self.group_of[item_id] = current
        rows: list[Row] = []
        for group in self.groups:
            self._compute_blocks(group)
            group.row_start = len(rows)
            group_rows = self._rows_of(group)
            group.row_count = len(group_rows)
            rows.extend(group_rows)
        self.rows = rows
        changes: list[RowChange] = []
        if old_count:
            changes.append(RowsRemoved(0, old_count))
        if rows:
            changes.append(RowsInserted(0, tuple(rows)))
        return changes

    # --- bookkeeping ---------------------------------------------------------------------------
    def position(self, key: RowKey) -> int | None:
        """The row's index, found among its group's few rows (every row names an item of its group,
        and each group knows where its rows start): no index of all rows is kept, so a long history
        holds no entry per row and a change in its middle renumbers nothing."""
        group = self.group_of.get(key.item)
        if group is None:
            return None
        rows = self.rows
        for at in range(group.row_start, group.row_start + group.row_count):
            if rows[at].key == key:
                return at
        return None

    def _position(self, key: RowKey) -> int:
        at = self.position(key)
        if at is None:
            raise KeyError(key)
        return at

    def _shift_groups_after(self, group: Group, delta: int) -> None:
        if delta == 0:
            return
        index = self.index_of(group)
        for later in self.groups[index + 1 :]:
            later.row_start += delta

    def index_of(self, group: Group) -> int:
        """The group's position (the last group is found at once; others by a scan from the end)."""
        if self.groups and self.groups[-1] is group:
            return len(self.groups) - 1
        for i in range(len(self.groups) - 1, -1, -1):
            if self.groups[i] is group:
                return i
        raise ValueError("group not found")

    def _regroup(self, group: Group, dirty: set[str]) -> list[RowChange]:
        """Recompute one group's rows and emit a keyed local diff against its old rows."""
        group.ref = GroupRef(group.kind, group.item_ids[0])
        self._compute_blocks(group)
        new = self._rows_of(group)
        start, old_count = group.row_start, group.row_count
        old = self.rows[start : start + old_count]
        prefix = 0
        while prefix < min(len(old), len(new)) and old[prefix].key == new[prefix].key:
            prefix += 1
        suffix = 0
        while (
            suffix < min(len(old), len(new)) - prefix
            and old[len(old) - 1 - suffix].key == new[len(new) - 1 - suffix].key
        ):
            suffix += 1
        changes: list[RowChange] = []

        def changed_runs(old_rows: list[Row], new_rows: list[Row], at: int) -> None:
            for offset, (before, after) in enumerate(zip(old_rows, new_rows, strict=True)):
                if before != after or set(after.item_ids) & dirty:
                    changes.append(RowsChanged(at + offset, (after,)))

        changed_runs(old[:prefix], new[:prefix], start)
        old_mid = len(old) - prefix - suffix
        new_mid = new[prefix : len(new) - suffix]
        if old_mid:
            changes.append(RowsRemoved(start + prefix, old_mid))
        if new_mid:
            changes.append(RowsInserted(start + prefix, tuple(new_mid)))
        tail_at = start + prefix + len(new_mid)
        changed_runs(old[len(old) - suffix :], new[len(new) - suffix :], tail_at)
        self.rows[start : start + old_count] = new
        group.row_count = len(new)
        self._shift_groups_after(group, len(new) - old_count)
        return changes

    def _append_group(self, group: Group) -> list[RowChange]:
        self.groups.append(group)
        self._compute_blocks(group)
        rows = self._rows_of(group)
        group.row_start = len(self.rows)
        group.row_count = len(rows)
        self.rows.extend(rows)
        return [RowsInserted(group.row_start, tuple(rows))]

    # --- item events ---------------------------------------------------------------------------
    def appended(self, item_id: str) -> list[RowChange]:
        """A new item at the end of the timeline."""
        item = self.items[item_id]
        kind = group_kind_of(item)
        last = self.groups[-1] if self.groups else None
        if last is None or last.kind != kind:
            group = self._new_group(item_id)
            group.item_ids.append(item_id)
            self.group_of[item_id] = group
            return self._append_group(group)
        last.item_ids.append(item_id)
        self.group_of[item_id] = last
        if kind == "user" or item.attachments:
            return self._regroup(last, {item_id})
        return self._append_block(last, item_id)

    def _append_block(self, group: Group, item_id: str) -> list[RowChange]:
        """Fast path: a new item at the end of the last turn (O(1) for text, thoughts, plans, tools)."""
        blocks_before = len(group.blocks)
        tail = group.blocks[-1] if group.blocks else None
        self._classify(group, item_id)
        block = self.block_of.get(item_id)
        if block is None:  # invisible and without attachments: no row
            return []
        if block is tail:  # joined the trailing tool group
            return self._refresh_block_row(group, block)
        position = group.row_start + blocks_before
        row = Row(block.key, block.kind, group.ref, block.item_ids, first=blocks_before == 0)
        changes: list[RowChange] = [RowsInserted(position, (row,))]
        self.rows.insert(position, row)
        group.row_count += 1
        self._shift_groups_after(group, 1)
        if blocks_before == 0:  # the row that was first (attachments or footer) is no longer first
            following = self.rows[position + 1]
            demoted = following._replace(first=False)
            self.rows[position + 1] = demoted
            changes.append(RowsChanged(position + 1, (demoted,)))
        return changes

    def _refresh_block_row(self, group: Group, block: Block) -> list[RowChange]:
        position = self._position(block.key)
        old = self.rows[position]
        row = Row(block.key, block.kind, group.ref, block.item_ids, first=old.first, last=old.last)
        self.rows[position] = row
        return [RowsChanged(position, (row,))]

    def changed(self, item_id: str) -> list[RowChange]:
        """An item's content changed in place."""
        group = self.group_of.get(item_id)
        if group is None:
            return []
        item = self.items[item_id]
        visible, attachments = item.visible, item.attachments
        before = self._attachments.get(item_id, ())
        same_attachments = attachments == before
        if group.kind == "user":
            if same_attachments:
                position = self._position(RowKey("user", group.ref.first_item))
                return [RowsChanged(position, (self.rows[position],))]
            return self._regroup(group, {item_id})
        if visible != (item_id in self.block_of) or bool(attachments) != bool(before):
            return self._regroup(group, {item_id})
        if attachments:
            self._attachments[item_id] = attachments
        changes: list[RowChange] = []
        block = self.block_of.get(item_id)
        if block is not None:
            position = self._position(block.key)
            changes.append(RowsChanged(position, (self.rows[position],)))
        if not same_attachments:
            position = self._position(RowKey("turn-attachments", group.ref.first_item))
            changes.append(RowsChanged(position, (self.rows[position],)))
        return changes

    def inserted(self, item_id: str, after: str) -> list[RowChange] | None:
        """An assistant item placed right after `after`, inside the timeline: it joins `after`'s turn,
        starts the next one, or splits a user group around a new turn; local row changes only. None
        for any other placement (the caller groups everything again)."""
        group = self.group_of.get(after)
        if group is None or group_kind_of(self.items[item_id]) != "assistant":
            return None
        at = group.item_ids.index(after) + 1
        index = self.index_of(group)
        if group.kind == "assistant" or at == len(group.item_ids):
            target = group if group.kind == "assistant" else self._next_assistant(index)
            if target is None:
                return self.appended(item_id)
            target.item_ids.insert(at if target is group else 0, item_id)
            self.group_of[item_id] = target
            return self._regroup(target, {item_id})
        rest, group.item_ids = group.item_ids[at:], group.item_ids[:at]
        changes = self._regroup(group, set())
        turn, question = self._new_group(item_id), self._new_group(rest[0])
        turn.item_ids, question.item_ids = [item_id], rest
        start, rows = group.row_start + group.row_count, list[Row]()
        for offset, new in enumerate((turn, question), start=1):
            self.groups.insert(index + offset, new)
            for member in new.item_ids:
                self.group_of[member] = new
            self._compute_blocks(new)
            new.row_start = start + len(rows)
            new_rows = self._rows_of(new)
            new.row_count = len(new_rows)
            rows.extend(new_rows)
        self.rows[start:start] = rows
        for later in self.groups[index + 3 :]:
            later.row_start += len(rows)
        return [*changes, RowsInserted(start, tuple(rows))]

    def _next_assistant(self, index: int) -> Group | None:
        following = self.groups[index + 1] if index + 1 < len(self.groups) else None
        return following if following is not None and following.kind == "assistant" else None

    def removed(self, item_id: str) -> list[RowChange]:
        """An item left the timeline (a failed prompt's optimistic message)."""
        group = self.group_of.pop(item_id, None)
        if group is None:
            return []
        self.block_of.pop(item_id, None)
        self._attachments.pop(item_id, None)
        group.item_ids.remove(item_id)
        if group.item_ids:
            return self._regroup(group, set())
        index = self.index_of(group)
        changes: list[RowChange] = [RowsRemoved(group.row_start, group.row_count)]
        self._drop_group(index)
        prev = self.groups[index - 1] if index > 0 else None
        nxt = self.groups[index] if index < len(self.groups) else None
        if prev is not None and nxt is not None and prev.kind == nxt.kind:
            changes.append(RowsRemoved(nxt.row_start, nxt.row_count))
            self._drop_group(index)
            prev.item_ids.extend(nxt.item_ids)
            for moved in nxt.item_ids:
                self.group_of[moved] = prev
            changes.extend(self._regroup(prev, set(nxt.item_ids)))
        return changes

    def _drop_group(self, index: int) -> None:
        group = self.groups.pop(index)
        start, count = group.row_start, group.row_count
        del self.rows[start : start + count]
        for later in self.groups[index:]:
            later.row_start -= count

    def footer_after(self, user_item_id: str) -> int | None:
        """Row index of the footer of the turn that answers the user group holding this item."""
        group = self.group_of.get(user_item_id)
        if group is None:
            return None
        index = self.index_of(group)
        if index + 1 >= len(self.groups):
            return None
        return self.position(RowKey("footer", self.groups[index + 1].ref.first_item))

    def previous(self, group: Group) -> Group | None:
        """The group before `group` (a turn's question), or None for the first."""
        index = self.index_of(group)
        return self.groups[index - 1] if index > 0 else None

    def group_of_row(self, row: Row) -> Group | None:
        """The group a row belongs to (a footer carries no items: its group names its first one)."""
        return self.group_of.get(row.group.first_item)
