"""The timeline as Markdown for people: an export of the whole chat and "Copy as Markdown" of one turn.
Tool output is fenced, a thought quoted; permissions, plans, proposals and a stop read as in the
transcript of `clawqt replay` (serialize.py writes those lines once). Pure: no Qt, no I/O."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.contract.ansi import strip_escapes
from app.renderer.timeline.groups import Group
from app.renderer.timeline.items import Item, MessageSegment, Thought, ToolCall
from app.renderer.timeline.parts import Attachment
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.serialize import item_json, item_lines
from app.renderer.timeline.terminal_screen import render_screen
from app.renderer.timeline.tool_text import STATUS_LABELS, screen_description, tool_diffs, tool_output
from app.renderer.timeline.turn_view import group_attachments, item_text, user_text


def fenced(text: str, info: str = "") -> str:
    """`text` in a code fence longer than any run of backticks inside it (so nothing it holds ends it)."""
    longest = run = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text.rstrip(chr(10))}\n{fence}"


def item_markdown(item: Item) -> str | None:
    """One item of an assistant turn as Markdown; None for what a turn does not show. Tool output is
    fenced (escapes removed; a terminal as its screen shows it), a thought is quoted; permissions,
    plans, proposals and a stop read as in `clawqt replay`'s transcript."""
    match item:
        case MessageSegment():
            return (item_text(item).strip() or None) if item.visible else None
        case Thought():
            text = item_text(item).strip()
            return (
                "> **Thought**\n>\n" + "\n".join(f"> {line}".rstrip() for line in text.splitlines())
                if text
                else None
            )
        case ToolCall() if item.proposal_call:
            return None
        case ToolCall():
            return _tool_markdown(item)
    shown = item_json(item)
    return "\n".join(item_lines(shown)).strip() if shown is not None else None


def _tool_markdown(tool: ToolCall) -> str:
    title = strip_escapes(tool.title) or "Tool call"
    lines = [f"**{title}** ({tool.tool_kind}, {STATUS_LABELS.get(tool.status, tool.status).lower()})"]
    terminal = tool.terminal
    output = screen_description(tool) if terminal is not None else tool_output(tool)
    if output.strip():
        lines.append(fenced(output, "text"))
    if terminal is not None and terminal.output:
        lines.append(fenced(render_screen(terminal.output), "console"))
    lines.extend(fenced(diff, "diff") for diff in tool_diffs(tool))
    if tool.error:
        lines.append(f"Error: {strip_escapes(tool.error)}")
    return "\n\n".join(lines)


def _attachment_links(attachments: list[Attachment]) -> list[str]:
    return [f"- [{a.name or a.uri}](<{a.uri}>)" for a in attachments]


def turn_markdown(items: dict[str, Item], group: Group) -> str:
    """An assistant turn's items and lifted attachments as Markdown (what "Copy as Markdown" copies)."""
    blocks = [text for text in (item_markdown(items[i]) for i in group.item_ids) if text]
    links = _attachment_links(group_attachments(items, group))
    if links:
        blocks.append("Attachments:\n\n" + "\n".join(links))
    return "\n\n".join(blocks)


# a prompt's message id -> the files its turn changed, as the footer shows them (name, created, deleted,
# added, removed): what the export says under each turn
FilesOf = Callable[[str], list[dict[str, Any]]]


def question_id(items: dict[str, Item], group: Group) -> str:
    """The prompt's message id of a user group: the turn after it is recorded under it (its changed
    files, its checkpoint)."""
    return next(
        (seg.message_id for i in group.item_ids if isinstance(seg := items.get(i), MessageSegment)), ""
    )


def files_markdown(files: list[dict[str, Any]]) -> str:
    def how(file: dict[str, Any]) -> str:
        what = "created" if file.get("created") else "deleted" if file.get("deleted") else "modified"
        return f"{what}, +{file.get('added', 0)} −{file.get('removed', 0)}"

    return "Files changed:\n\n" + "\n".join(f"- `{file['name']}` ({how(file)})" for file in files)


def group_markdown(items: dict[str, Item], group: Group) -> str:
    if group.kind == "user":
        blocks = ["## You", user_text(items, group)]
        links = _attachment_links(group_attachments(items, group))
        if links:
            blocks.append("\n".join(links))
        return "\n\n".join(block for block in blocks if block)
    body = turn_markdown(items, group)
    return "## Agent\n\n" + body if body else "## Agent"


def timeline_markdown(
    timeline: Timeline, title: str, subtitle: str = "", files_of: FilesOf | None = None
) -> str:
    """The whole chat as one Markdown document: its title, a line saying what it is, then every
    question and turn in order, each turn with the files it changed (`files_of`). Machine context
    ClawQt added to prompts is never in it (the reducer removed it from the items)."""
    head = f"# {title.strip() or 'Chat'}" + (f"\n\n_{subtitle}_" if subtitle else "")
    blocks = [head]
    asked = ""
    for group in timeline.grouping.groups:
        blocks.append(group_markdown(timeline.items, group))
        if group.kind == "user":
            asked = question_id(timeline.items, group)
        elif asked and files_of is not None and (files := files_of(asked)):
            blocks.append(files_markdown(files))
            asked = ""
    return "\n\n".join(blocks) + "\n"
