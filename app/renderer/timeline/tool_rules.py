"""The reducer's rules for process items: tool calls (created by id, patched field by field; content and
locations replace; `tool_call_content_chunk` appends one content item; terminal content and `_meta` feed
the terminal registry) and the plan (one item whose entries replace). Part of `Timeline` (reducer.py);
each rule pinned in tests/unit/timeline/test_reducer_rules.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.contract.acp_fields import dict_items, str_field
from app.contract.credentials import redact_credentials
from app.renderer.timeline.items import PlanItem, ToolCall
from app.renderer.timeline.parts import ErrorPart, Part, TerminalRefPart, tool_content_to_part
from app.renderer.timeline.proposal_rules import ProposalRules

if TYPE_CHECKING:
    from app.contract.acp import PlanUpdate, ToolCallUpdate


MAX_ERROR_CHARS = 4_000  # of a tool's `error` text
MAX_TOOL_PARTS = 2_000  # content items a tool keeps from `tool_call_content_chunk`; later ones are counted
_TOOL_STATUS = {"pending": "pending", "in_progress": "running", "completed": "completed", "failed": "failed"}


class ToolRules(ProposalRules):
    def _tool(self, update: ToolCallUpdate, historical: bool) -> None:
        tool_call_id = str_field(update, "toolCallId")
        if tool_call_id is None:
            self.ignored += 1
            return
        self.close_segments()
        item_id = f"tool:{tool_call_id}"
        tool = self.items.get(item_id)
        created = tool is None
        if tool is None:
            tool = ToolCall(id=item_id, tool_call_id=tool_call_id, title=tool_call_id, historical=historical)
        elif not isinstance(tool, ToolCall):
            self.ignored += 1
            return
        self._patch_tool(tool, update, historical)
        invocation = self._recognise_proposal_call(tool, update)  # proposal_rules.py
        touched = self.terminals.apply_meta(tool, update.get("_meta"))
        if created:
            self.append(tool)
        else:
            self.touch(tool)
        for other in touched:
            if other is not tool and other.id in self.items:
                self.touch(other)
        if invocation is not None:
            self._proposal_call_placed(tool, invocation)

    def _tool_content_chunk(self, update: dict[str, Any], historical: bool) -> None:
        """ACP's `tool_call_content_chunk {toolCallId, content}` appends ONE tool content item (content,
        diff or terminal) to the call's content, creating the call when it is new (as running, like
        ClawX); a content that is not an object becomes an error part, never a dropped update."""
        tool_call_id = str_field(update, "toolCallId")
        if tool_call_id is None:
            self.ignored += 1
            return
        self.close_segments()
        item_id = f"tool:{tool_call_id}"
        tool = self.items.get(item_id)
        created = tool is None
        if tool is None:
            tool = ToolCall(
                id=item_id,
                tool_call_id=tool_call_id,
                title=tool_call_id,
                status="running",
                historical=historical,
            )
        elif not isinstance(tool, ToolCall):
            self.ignored += 1
            return
        entry = redact_credentials(update.get("content"))
        part = (
            tool_content_to_part(entry)
            if isinstance(entry, dict)
            else ErrorPart("Unsupported ACP tool content chunk")
        )
        if len(tool.output_parts) < MAX_TOOL_PARTS:
            tool.output_parts.append(part)
            if isinstance(part, TerminalRefPart):
                self.terminals.attach(tool, part.terminal_id)
        else:
            tool.parts_dropped += 1
        tool.historical = tool.historical or historical
        if created:
            self.append(tool)
        else:
            self.touch(tool)

    def _time_tool(self, tool: ToolCall, historical: bool) -> None:
        """Its first live update starts its clock, the one that finishes it stops it (a loaded or
        replayed call has no arrival times, so no duration)."""
        now = self.arrived_at
        if historical or now is None:
            return
        if tool.started_at is None:
            tool.started_at = now
        if tool.status in ("completed", "failed") and tool.ended_at is None:
            tool.ended_at = now

    def _patch_tool(self, tool: ToolCall, update: ToolCallUpdate, historical: bool) -> None:
        """Patch only the fields present; content and locations replace. ClawQt's own terminal
        credentials in what the agent echoes (the model's arguments) are cut first."""
        update = redact_credentials(update)
        tool.title = str_field(update, "title") or tool.title
        tool.tool_kind = str_field(update, "kind") or tool.tool_kind
        status = update.get("status")
        if isinstance(status, str) and status in _TOOL_STATUS:
            tool.status = _TOOL_STATUS[status]  # type: ignore[assignment]
        self._time_tool(tool, historical)
        if "rawInput" in update:
            tool.input = update["rawInput"]
        if "rawOutput" in update:
            tool.output = update["rawOutput"]
        content = update.get("content")
        if isinstance(content, list):
            parts: list[Part] = []
            for entry in content:
                part = tool_content_to_part(entry)
                parts.append(part)
                if isinstance(part, TerminalRefPart):
                    self.terminals.attach(tool, part.terminal_id)
            tool.output_parts = parts[:MAX_TOOL_PARTS]
            tool.parts_dropped = max(0, len(parts) - MAX_TOOL_PARTS)
        if isinstance(update.get("locations"), list):
            tool.locations = dict_items(update, "locations")
        meta = update.get("_meta")
        if isinstance(meta, dict):
            tool.meta = meta
        error = update.get("error")
        if isinstance(error, dict):
            error = error.get("message")
        if isinstance(error, str) and error.strip():
            tool.error = error[:MAX_ERROR_CHARS]
        tool.historical = tool.historical or historical

    def _plan(self, update: PlanUpdate, historical: bool) -> None:
        plain = [
            {
                "content": e.get("content") if isinstance(e.get("content"), str) else "",
                "status": e.get("status") if isinstance(e.get("status"), str) else "pending",
                "priority": e.get("priority") if isinstance(e.get("priority"), str) else "medium",
            }
            for e in dict_items(update, "entries")
        ]
        self.close_segments()
        plan = self.items.get("plan:current")
        if isinstance(plan, PlanItem):
            plan.entries = plain
            plan.historical = plan.historical or historical
            self.touch(plan)
        elif plan is None:
            self.append(PlanItem(id="plan:current", entries=plain, historical=historical))
