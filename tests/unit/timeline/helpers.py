"""Small builders for hand-written timeline tests."""

from __future__ import annotations

from typing import Any

from app.contract.envelopes import (
    PermissionRequestEnvelope,
    PermissionResolvedEnvelope,
    PromptSettledEnvelope,
    SessionUpdateEnvelope,
    ToolCallsCancelledEnvelope,
)
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import apply_changes
from app.renderer.timeline.serialize import item_record

KEY = "key-1"
GEN = 4


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def update(kind: str, historical: bool = False, session: str = KEY, generation: int = GEN, **fields: Any):
    return SessionUpdateEnvelope(
        session, generation, historical, {"sessionId": session, "update": {"sessionUpdate": kind, **fields}}
    )


def agent(value: str | dict, message_id: str | None = None, **kw: Any):
    content = text(value) if isinstance(value, str) else value
    fields = {"content": content, **({"messageId": message_id} if message_id else {})}
    return update("agent_message_chunk", **fields, **kw)


def user(value: str | dict, message_id: str | None = None, **kw: Any):
    content = text(value) if isinstance(value, str) else value
    fields = {"content": content, **({"messageId": message_id} if message_id else {})}
    return update("user_message_chunk", **fields, **kw)


def thought(value: str, message_id: str | None = None, **kw: Any):
    fields = {"content": text(value), **({"messageId": message_id} if message_id else {})}
    return update("agent_thought_chunk", **fields, **kw)


def tool(tool_call_id: str, update_kind: str = "tool_call", **fields: Any):
    """A tool_call (or, with update_kind="tool_call_update", an update); `kind=` is the tool kind."""
    historical = fields.pop("historical", False)
    return SessionUpdateEnvelope(
        KEY,
        GEN,
        historical,
        {"sessionId": KEY, "update": {"sessionUpdate": update_kind, "toolCallId": tool_call_id, **fields}},
    )


def permission(request_id: str, *options: str):
    opts = tuple({"optionId": o, "name": o.title(), "kind": "allow_once"} for o in options or ("allow",))
    return PermissionRequestEnvelope(KEY, GEN, request_id, {"toolCallId": "t"}, opts)


def resolved(request_id: str, option: str | None):
    return PermissionResolvedEnvelope(
        KEY, GEN, request_id, "selected" if option else "cancelled", option, "x"
    )


def settled(message_id: str, error: str | None = None, stop: str | None = "end_turn", elapsed: float = 2.0):
    return PromptSettledEnvelope(KEY, GEN, message_id, None if error else stop, error, elapsed)


def cancelled(*ids: str):
    return ToolCallsCancelledEnvelope(KEY, GEN, ids)


class Harness:
    """A timeline plus a mirror list fed only by the emitted row changes."""

    def __init__(self) -> None:
        self.timeline = Timeline(KEY, GEN)
        self.mirror: list = []

    def __call__(self, *envelopes: Any) -> Harness:
        for envelope in envelopes:
            apply_changes(self.mirror, self.timeline.apply(envelope))
        assert self.mirror == self.timeline.rows
        return self

    def removed(self, item_id: str) -> Harness:
        """The item taken out by the grouping alone (removal anywhere: the reducer only removes
        trailing messages), the mirror fed its changes."""
        changes = self.timeline.grouping.removed(item_id)
        del self.timeline.items[item_id]
        self.timeline.order.remove(item_id)
        apply_changes(self.mirror, changes)
        return self

    def optimistic(self, message_id: str, value: str, attachments: tuple = ()) -> Harness:
        apply_changes(self.mirror, self.timeline.add_optimistic(message_id, value, attachments))
        return self

    @property
    def ids(self) -> list[str]:
        return list(self.timeline.order)

    def item(self, item_id: str) -> Any:
        return self.timeline.items[item_id]

    def plain(self, item_id: str) -> dict:
        return item_record(self.timeline.items[item_id])

    @property
    def row_kinds(self) -> list[str]:
        return [r.kind for r in self.timeline.rows]
