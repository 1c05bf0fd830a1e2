"""A chat up to one of the user's messages as a transcript another session can start from ("Continue
from here", "Edit and resend"): what the user wrote, the agent's answers, tool calls in one line each
(their output and diffs left out), in order. An agent that cannot fork a session reads it as hidden
context of the new chat's first message. Bounded: past `MAX_HANDOVER_CHARS` the oldest exchanges are
left out and the transcript says how many. Pure: no Qt, no I/O."""

from __future__ import annotations

from dataclasses import dataclass

from app.contract.ansi import strip_escapes
from app.renderer.timeline.groups import Group
from app.renderer.timeline.items import Item, MessageSegment, ToolCall
from app.renderer.timeline.markdown_export import question_id
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.tool_text import STATUS_LABELS
from app.renderer.timeline.turn_view import item_text, user_text

MAX_HANDOVER_CHARS = 60_000  # what any agent's first prompt can carry beside the user's message


@dataclass(frozen=True)
class Handover:
    text: str  # the transcript for the agent ("" when nothing comes before the point)
    message_text: str  # the chosen message as the user wrote it (what Edit and resend puts back)
    exchanges: int  # how many of the user's messages the transcript carries
    at_end: bool  # the point is the chat's end: nothing after it is left behind


def _answer(items: dict[str, Item], group: Group) -> str:
    lines = []
    for item_id in group.item_ids:
        item = items.get(item_id)
        if isinstance(item, MessageSegment) and item.visible:
            text = item_text(item).strip()
            if text:
                lines.append(text)
        elif isinstance(item, ToolCall) and not item.proposal_call:
            status = STATUS_LABELS.get(item.status, item.status).lower()
            lines.append(f"[tool call: {strip_escapes(item.title) or 'a tool'} ({item.tool_kind}, {status})]")
    return "\n\n".join(lines)


def _exchanges(timeline: Timeline) -> list[tuple[str, str, str]]:
    """(message id, the user's text, the answer) for each of the user's messages, in order."""
    found: list[tuple[str, str, str]] = []
    for group in timeline.grouping.groups:
        if group.kind == "user":
            found.append((question_id(timeline.items, group), user_text(timeline.items, group), ""))
        elif found:
            message_id, asked, answered = found[-1]
            answer = _answer(timeline.items, group)
            if answer:
                found[-1] = (message_id, asked, f"{answered}\n\n{answer}".strip())
    return found


def handover(
    timeline: Timeline,
    message_id: str,
    *,
    with_its_turn: bool,
    title: str,
    agent: str,
    limit: int = MAX_HANDOVER_CHARS,
) -> Handover:
    """The chat before the message `message_id` (and that message with its answer when
    `with_its_turn`) as a transcript; a message not in the timeline raises KeyError."""
    exchanges = _exchanges(timeline)
    index = next((i for i, e in enumerate(exchanges) if e[0] == message_id and message_id), None)
    if index is None:
        raise KeyError(message_id)
    end = index + 1 if with_its_turn else index
    carried = exchanges[:end]
    speaker = agent or "Assistant"
    parts = [f"User:\n{asked}\n\n{speaker}:\n{answer or '(no answer)'}" for _, asked, answer in carried]
    left_out = 0
    while parts and sum(len(p) + 2 for p in parts) > limit:
        parts.pop(0)
        left_out += 1
    text = ""
    if carried:
        head = (
            f"This chat continues an earlier conversation the user had in ClawQt, titled "
            f'"{title.strip() or "Chat"}", with {agent or "an agent"}. Here it is as context, oldest '
            "first: the user's messages, the answers, tool calls in short. Go on from where it ends; "
            "do not repeat it or answer it again."
        )
        if left_out:
            head += f" ({left_out} earlier exchanges are left out for length.)"
        text = "\n\n".join([head, "<conversation_so_far>", *parts, "</conversation_so_far>"])
    return Handover(text, exchanges[index][1], len(carried) - left_out, end == len(exchanges))


def user_message_text(timeline: Timeline, message_id: str) -> str:
    """What the user wrote in the message `message_id` ("" when it is not in the timeline)."""
    return next((asked for mid, asked, _ in _exchanges(timeline) if mid == message_id and mid), "")
