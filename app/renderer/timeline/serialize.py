"""The one serializer of the timeline: every item's plain-data form is written here, once.

- `item_record(item)` / `timeline_record(timeline)`: everything an item holds, JSON-ready (tests,
  debugging, an export's detail);
- `item_json(item)` / `timeline_json(timeline)`: the public grouped shape `clawqt replay --json` prints
  (its field names and order are a contract, harness/reference/acp-timeline.md);
- `transcript(sessions)`: that shape as text for people (`clawqt replay` without `--json`);
- `item_lines(item)`: one item of that shape as the transcript's lines, which Markdown for people
  (markdown_export.py) reuses for the items both show.

The shared pieces (an attachment, a permission option, a terminal) are written once and also used by
the view's row payloads. Pure: no Qt, no I/O.
"""

from __future__ import annotations

from typing import Any

from app.renderer.timeline.groups import Group
from app.renderer.timeline.items import (
    ElicitationItem,
    Item,
    MessageSegment,
    PermissionItem,
    PlanItem,
    ProposalItem,
    TerminalState,
    Thought,
    ToolCall,
    TurnEnd,
)
from app.renderer.timeline.metadata import Metadata
from app.renderer.timeline.parts import (
    Attachment,
    AttachmentPart,
    DiffPart,
    ErrorPart,
    ImagePart,
    MarkdownPart,
    Part,
    TerminalRefPart,
)
from app.renderer.timeline.questions import question_directory
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.terminal_screen import render_screen
from app.renderer.timeline.turn_view import copy_text, group_attachments, item_text, user_text


# --- shared pieces -----------------------------------------------------------------------------------
def attachment_record(attachment: Attachment) -> dict[str, Any]:
    record: dict[str, Any] = {
        "name": attachment.name,
        "uri": attachment.uri,
        "source": attachment.source,
        "status": attachment.status,
    }
    embedded = attachment.embedded
    if embedded is not None:
        record["embedded"] = {"text": embedded.text, "size": embedded.size, "truncated": embedded.truncated}
        record["mimeType"] = attachment.mime_type
    return record


def option_record(option: dict[str, Any]) -> dict[str, Any]:
    """A permission option as the agent sent it (values unchecked: callers that show them convert)."""
    return {"optionId": option.get("optionId"), "name": option.get("name"), "kind": option.get("kind")}


def question_record(item: ElicitationItem) -> dict[str, Any]:
    """An agent's question: what it asked (a form's fields, a link's host, or why it was refused) and
    how it ended, with what was sent as the user read it."""
    form = item.form
    fields = form.fields if form is not None else ()
    return {
        "message": item.message,
        "mode": "form" if form is not None else "url" if item.url else "refused",
        "title": form.title if form is not None else "",
        "fields": [
            {"name": f.name, "kind": f.kind, "label": f.label, "required": f.required} for f in fields
        ],
        "url": item.url,
        "host": item.host,
        "refused": item.refused,
        "status": item.status,
        "reason": item.reason,
        "answers": [{"label": label, "value": value} for label, value in item.answers],
        "completed": item.completed,
    }


def selected_record(item: PermissionItem) -> dict[str, Any] | None:
    """The option a resolved permission chose, as the agent offered it (an id it did not offer keeps
    its id with no name or kind); None while pending or when cancelled."""
    if item.selected_option is None:
        return None
    chosen = next((o for o in item.options if o.get("optionId") == item.selected_option), None)
    return option_record(chosen or {"optionId": item.selected_option})


def terminal_record(terminal: TerminalState, *, rendered: bool) -> dict[str, Any]:
    """`rendered`: the output as a screen shows it (escape sequences applied), else as received."""
    return {
        "terminalId": terminal.terminal_id,
        "cwd": terminal.cwd,
        "output": render_screen(terminal.output) if rendered else terminal.output,
        "exitCode": terminal.exit_code,
        "signal": terminal.signal,
    }


def proposal_record(item: ProposalItem) -> dict[str, Any]:
    """A proposal card: its choices as the agent proposed them and whether it can still run."""
    return {
        "proposalId": item.proposal_id or None,
        "turnId": item.turn_id or None,
        "origin": item.origin,
        "state": item.state,
        "reason": item.reason,
        "readable": item.readable,
        "recommended": item.recommended,
        "sendTarget": item.send_target_title or None,
        "choices": [
            {
                "choice": c.choice,
                "title": c.title,
                "rationale": c.rationale,
                "actions": [
                    {"type": a.type, "input": a.input, "cwd": a.cwd, "title": a.title} for a in c.actions
                ],
            }
            for c in item.choices
        ],
    }


def part_record(part: Part) -> dict[str, Any]:
    if isinstance(part, MarkdownPart):
        return {"kind": "markdown", "text": part.text}
    if isinstance(part, ImagePart):
        return {"kind": "image", "uri": part.uri}
    if isinstance(part, AttachmentPart):
        return {"kind": "attachment", **attachment_record(part.attachment)}
    if isinstance(part, DiffPart):
        return {"kind": "diff", "path": part.path, "old": part.old_text, "new": part.new_text}
    if isinstance(part, TerminalRefPart):
        return {"kind": "terminal", "terminalId": part.terminal_id}
    assert isinstance(part, ErrorPart)
    return {"kind": "error", "text": part.text}


# --- the full record -----------------------------------------------------------------------------------
def item_record(item: Item) -> dict[str, Any]:
    """Everything the item holds (a comparable, JSON-ready picture)."""
    match item:
        case MessageSegment():
            return {
                "kind": "message",
                "id": item.id,
                "role": item.role,
                "messageId": item.message_id,
                "segment": item.segment_index,
                "optimistic": item.optimistic,
                "historical": item.historical,
                "parts": [part_record(p) for p in item.parts],
            }
        case Thought():
            parts = [part_record(p) for p in item.parts]
            return {"kind": "thought", "id": item.id, "historical": item.historical, "parts": parts}
        case ToolCall() if item.proposal_call:  # its card shows the proposal
            return {"kind": "tool", "id": item.id, "status": item.status, "proposalCall": True}
        case ToolCall():
            terminal = item.terminal
            return {
                "kind": "tool",
                "id": item.id,
                "toolCallId": item.tool_call_id,
                "title": item.title,
                "toolKind": item.tool_kind,
                "status": item.status,
                "historical": item.historical,
                "parts": [part_record(p) for p in item.output_parts],
                "locations": item.locations,
                "terminal": terminal_record(terminal, rendered=False) if terminal else None,
                "error": item.error,
            }
        case PermissionItem():
            return {
                "kind": "permission",
                "id": item.id,
                "status": item.status,
                "selected": item.selected_option,
                "options": [option_record(o) for o in item.options],
            }
        case ElicitationItem():
            return {"kind": "elicitation", "id": item.id, **question_record(item)}
        case PlanItem():
            return {"kind": "plan", "id": item.id, "entries": item.entries}
        case TurnEnd():
            return {"kind": "turn-end", "id": item.id, "reason": item.reason}
        case ProposalItem():
            return {"kind": "proposal", "id": item.id, "historical": item.historical, **proposal_record(item)}


def metadata_record(meta: Metadata) -> dict[str, Any]:
    return {
        "title": meta.title,
        "updatedAt": meta.updated_at,
        "mode": meta.mode,
        "commands": meta.commands,
        "configOptions": meta.config_options,
        "usage": meta.usage,
    }


def timeline_record(timeline: Timeline) -> dict[str, Any]:
    return {
        "session": timeline.session_key,
        "order": list(timeline.order),
        "items": [item_record(timeline.items[i]) for i in timeline.order],
        "meta": metadata_record(timeline.meta),
    }


# --- the public grouped shape (clawqt replay --json) ---------------------------------------------------
def item_json(item: Item) -> dict[str, Any] | None:
    """One item of an assistant turn; None for what a turn does not show (attachment-only segments)."""
    match item:
        case MessageSegment():
            return {"kind": "message", "id": item.id, "text": item_text(item)} if item.visible else None
        case Thought():
            return {"kind": "thought", "id": item.id, "text": item_text(item)}
        case ToolCall() if item.proposal_call:
            return None  # the CLI's invocation is never a tool card: its proposal card is
        case ToolCall():
            terminal = item.terminal
            tool = {
                "toolCallId": item.tool_call_id,
                "title": item.title,
                "toolKind": item.tool_kind,
                "status": item.status,
                "terminal": terminal_record(terminal, rendered=True) if terminal else None,
            }
            return {"kind": "tool", "id": item.id, "tool": tool}
        case PermissionItem():
            options = [option_record(o) for o in item.options]
            selected = selected_record(item)
            return {
                "kind": "permission",
                "id": item.id,
                "permission": {"status": item.status, "selected": selected, "options": options},
            }
        case ElicitationItem():
            return {"kind": "question", "id": item.id, "question": question_record(item)}
        case PlanItem():
            return {"kind": "plan", "id": item.id, "plan": {"entries": item.entries}}
        case TurnEnd():
            return {"kind": "stopped", "id": item.id}
        case ProposalItem():
            return {"kind": "proposal", "id": item.id, "proposal": proposal_record(item)}


def group_json(items: dict[str, Item], group: Group) -> dict[str, Any]:
    attachments = [attachment_record(a) for a in group_attachments(items, group)]
    if group.kind == "user":
        return {
            "kind": "user",
            "id": str(group.ref),
            "text": user_text(items, group),
            "attachments": attachments,
        }
    shown = [j for j in (item_json(items[i]) for i in group.item_ids) if j is not None]
    return {
        "kind": "assistant-turn",
        "id": str(group.ref),
        "items": shown,
        "attachments": attachments,
        "copyText": copy_text(items, group),
    }


def timeline_json(timeline: Timeline, ignored: int) -> dict[str, Any]:
    """`ignored`: messages the feed did not apply (the timeline adds the envelopes it ignored)."""
    directory = question_directory(timeline.items, timeline.grouping, limit=10**9)
    return {
        "key": timeline.session_key,
        "title": timeline.meta.title,
        "groups": [group_json(timeline.items, group) for group in timeline.grouping.groups],
        "questions": [q.title for q in directory.entries],
        "diagnostics": {"ignored": ignored + timeline.ignored},
    }


def transcript(sessions: list[dict[str, Any]]) -> str:
    """`timeline_json` sessions as a readable transcript."""
    out: list[str] = []
    for session in sessions:
        out.append(f"# {session['title'] or session['key']}\n")
        for group in session["groups"]:
            if group["kind"] == "user":
                out.append(f"## You\n\n{group['text']}\n")
            else:
                out.append("## Agent\n")
                for item in group["items"]:
                    out.extend(item_lines(item))
            out.extend(f"- attachment: {a['name']} <{a['uri']}>" for a in group["attachments"])
            out.append("")
    return "\n".join(out)


def item_lines(item: dict[str, Any]) -> list[str]:
    kind = item["kind"]
    if kind in ("message", "thought"):
        prefix = "> " if kind == "thought" else ""
        return ["\n".join(prefix + line for line in item["text"].splitlines()) + "\n"]
    if kind == "tool":
        tool = item["tool"]
        lines = [f"- [{tool['status']}] {tool['title']} ({tool['toolKind']})"]
        if tool["terminal"]:
            lines.append("```console\n" + tool["terminal"]["output"] + "\n```")
        return lines
    if kind == "permission":
        permission, chosen = item["permission"], item["permission"]["selected"]
        line = f"- permission: {permission['status']}"
        if chosen is not None:
            line += f": {chosen['name'] or chosen['optionId']}"
            line += f" ({chosen['kind']})" if chosen["kind"] else ""
        return [line]
    if kind == "question":
        question = item["question"]
        ended = question["reason"] or question["status"]
        lines = [f"- question ({ended}): {question['message'] or question['title']}".rstrip()]
        return lines + [f"  {answer['label']}: {answer['value']}" for answer in question["answers"]]
    if kind == "stopped":
        return ["(stopped before a reply)"]
    if kind == "proposal":
        return _proposal_lines(item["proposal"])
    return [f"- [{e['status']}] {e['content']}" for e in item["plan"]["entries"]]


def _proposal_lines(proposal: dict[str, Any]) -> list[str]:
    if not proposal["readable"]:
        return [f"- proposal ({proposal['state']}): could not be read"]
    lines = [f"- proposal ({proposal['state']})" + (f": {proposal['reason']}" if proposal["reason"] else "")]
    for choice in proposal["choices"]:
        mark = " (recommended)" if choice["choice"] == proposal["recommended"] else ""
        lines.append(f"  {choice['choice']}. {choice['title']}{mark}")
        for action in choice["actions"]:
            where = f" in {action['cwd']}" if action["cwd"] else ""
            command = f": {action['input']}" if action["input"] else ""
            lines.append(f"     {action['type']}{where}{command}")
    return lines
