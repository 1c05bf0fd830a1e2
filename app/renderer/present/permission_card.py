"""What a permission shows: the agent's options by name, the answer by the option's name and what it
means; and where it shows, in the footer of the tool card it concerns when that card is the row right
above it (one card: what would run, and the decision), else as a card of its own. Pure: no Qt."""

from __future__ import annotations

from typing import Any

from app.renderer.timeline.items import PermissionItem, ToolCall
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.serialize import option_record


def footing_tool(timeline: Timeline, permission: PermissionItem) -> ToolCall | None:
    """The tool call whose card the permission is the footer of: the call it concerns, alone on the row
    just before the permission's own (a call in a group of calls, or further up, keeps a separate card)."""
    call = permission.tool_call if isinstance(permission.tool_call, dict) else {}
    tool = timeline.items.get(f"tool:{call.get('toolCallId')}")
    if not isinstance(tool, ToolCall) or tool.permission_id != permission.id:
        return None
    grouping = timeline.grouping
    group, own, above = (
        grouping.group_of.get(permission.id),
        grouping.block_of.get(permission.id),
        grouping.block_of.get(tool.id),
    )
    if group is None or own is None or above is None or above.kind != "tool":
        return None
    at = next((i for i in range(len(group.blocks) - 1, -1, -1) if group.blocks[i] is own), 0)
    return tool if at > 0 and group.blocks[at - 1] is above else None


OPTION_KIND_LABELS = {
    "allow_once": "allowed once",
    "allow_always": "always allowed",
    "reject_once": "rejected",
    "reject_always": "always rejected",
}


BUTTON_OPTIONS = (
    9  # options drawn as buttons, each with its number key; the rest in a list made as it scrolls
)


def split_options(options: list[dict[str, str]]) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """The options drawn as buttons and the rest (listed under "More options"), each in the agent's
    order. Past BUTTON_OPTIONS the first rejecting option takes the last button: refusing stays one key
    away however many options an agent offers (a hundred buttons took a tenth of a second to make)."""
    if len(options) <= BUTTON_OPTIONS:
        return options, []
    first = options[:BUTTON_OPTIONS]
    reject = next((o for o in options if o["optionKind"].startswith("reject")), None)
    if reject is not None and reject not in first:
        first = [*options[: BUTTON_OPTIONS - 1], reject]
    shown = {id(o) for o in first}
    return first, [o for o in options if id(o) not in shown]


def permission_entry(item: PermissionItem) -> dict[str, Any]:
    """What a permission row shows; an answer by the option's name and what it means (not its id)."""
    call = item.tool_call if isinstance(item.tool_call, dict) else {}
    options = [option_record(o) for o in item.options]
    offered = [
        {
            "optionId": str(o["optionId"] or ""),
            "name": str(o["name"] or ""),
            "optionKind": str(o["kind"] or ""),
        }
        for o in options
    ]
    buttons, more = split_options(offered)
    chosen = next((o for o in options if o["optionId"] == item.selected_option), None)
    chosen_kind = str(chosen["kind"] or "") if chosen else ""
    return {
        "requestId": item.request_id,
        "status": item.status,
        "hiddenOptions": item.hidden_options,
        "selected": item.selected_option or "",
        "selectedName": str(chosen["name"] or chosen["optionId"]) if chosen else item.selected_option or "",
        "selectedMeaning": OPTION_KIND_LABELS.get(chosen_kind, ""),
        "title": str(call.get("title") or call.get("toolCallId") or "The agent asks permission"),
        "requestText": item.request_text,
        "ruleId": item.rule_id,  # answered by the user's rule (the card says which, with Undo rule)
        "ruleWords": item.rule_words,
        "requestKind": item.request_kind,
        "options": buttons,
        "moreOptions": more,
    }
