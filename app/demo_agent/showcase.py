"""The showcase turn: one deterministic turn that exercises everything a chat client must render
(thoughts, a plan, markdown, tool calls of several kinds, a permission request, a terminal, a file link,
session info and usage)."""

from __future__ import annotations

import logging
from pathlib import Path

from acp.schema import (
    AgentMessageChunk,
    AgentPlanUpdate,
    ContentToolCallContent,
    Cost,
    FileEditToolCallContent,
    PermissionOption,
    PlanEntry,
    PlanEntryPriority,
    PlanEntryStatus,
    ResourceContentBlock,
    SessionInfoUpdate,
    TerminalToolCallContent,
    TextContentBlock,
    ToolCallLocation,
    ToolCallProgress,
    ToolCallStart,
    ToolCallUpdate,
    UsageUpdate,
)

from app.demo_agent.turn import StopReason, ToolContent, Turn, TurnCancelled

log = logging.getLogger(__name__)

NOTES_FILE = "clawqt-demo-notes.md"
CONTEXT_SIZE = 200_000

MARKDOWN = """## What a turn can hold

Replies stream in small chunks, with *emphasis*, **bold**, `inline code` and [links](https://agentclientprotocol.com).

```python
def greet(name: str) -> str:
    \"\"\"Say hello to someone.\"\"\"
    return f"Hello, {name}!"
```

| Feature | Shown as | Status |
|---|---|---|
| Streaming | message chunks | done |
| Tools | read, search, edit, execute | next |
| Files | a resource link | last |

> Every step below is real: the files, the diff and the test run live in a scratch project.

Now a few tool calls.
"""

CLOSING = """

That is the whole tour: a plan, markdown, four kinds of tool calls, a permission prompt and a file.
Type `/help` for the commands, or ask for something *slow* to try cancelling.
"""

PLAN: list[tuple[str, PlanEntryPriority]] = [
    ("Explain what a turn can contain", "high"),
    ("Read, search, edit and test the project", "medium"),
    ("Write notes and link them", "low"),
]

README_TEXT = """# hello-project

A tiny project the demo agent pretends to work on.

    python hello.py
"""

OLD_HELLO = 'print("hello")\n'
NEW_HELLO = 'def main() -> None:\n    print("hello, world")\n\n\nif __name__ == "__main__":\n    main()\n'

COMMAND = "pytest -q"
TERMINAL_OUTPUT = [
    "\x1b[1m============================= test session starts ==============================\x1b[0m\n",
    "collected 3 items\n\n",
    "tests/test_hello.py \x1b[32m.\x1b[0m\x1b[32m.\x1b[0m\x1b[32m.\x1b[0m\x1b[32m"
    "                                            [100%]\x1b[0m\n",
    "\n\x1b[32m\x1b[1m============================== 3 passed in 0.02s "
    "===============================\x1b[0m\n",
]
CONSOLE_OUTPUT = "collected 3 items\n\ntests/test_hello.py ...    [100%]\n\n3 passed in 0.02s\n"

PERMISSION_OPTIONS = [
    PermissionOption(option_id="allow", name="Allow", kind="allow_once"),
    PermissionOption(option_id="allow-always", name="Always allow", kind="allow_always"),
    PermissionOption(option_id="reject", name="Reject", kind="reject_once"),
]
ALLOW_IDS = frozenset({"allow", "allow-always"})


def _text(text: str) -> ToolContent:
    return [ContentToolCallContent(type="content", content=TextContentBlock(type="text", text=text))]


class _Plan:
    """The three-step plan, re-sent whole on every status change (entries replace)."""

    def __init__(self, turn: Turn) -> None:
        self._turn = turn
        self._statuses: list[PlanEntryStatus] = ["pending"] * len(PLAN)

    async def set(self, index: int, status: PlanEntryStatus) -> None:
        self._statuses[index] = status
        entries = [
            PlanEntry(content=content, priority=priority, status=status)
            for (content, priority), status in zip(PLAN, self._statuses, strict=True)
        ]
        await self._turn.send(AgentPlanUpdate(session_update="plan", entries=entries))
        await self._turn.pause()

    async def advance(self, done: int) -> None:
        """Complete step `done` and start the next one, if any."""
        await self.set(done, "completed")
        if done + 1 < len(PLAN):
            await self.set(done + 1, "in_progress")


async def run_showcase(turn: Turn) -> StopReason:
    """The scripted turn; every step may raise TurnCancelled, which the agent turns into "cancelled"."""
    await turn.stream(_thought(turn), part="thought", thought=True)
    plan = _Plan(turn)
    await plan.set(0, "pending")
    await plan.set(0, "in_progress")
    await turn.stream(MARKDOWN, part="answer-1")
    await plan.advance(0)
    await _read(turn)
    await _search(turn)
    await _edit(turn)
    await _execute(turn)
    await plan.advance(1)
    await _notes_link(turn)
    await plan.advance(2)
    await turn.stream(CLOSING, part="answer-2")
    await turn.send(
        SessionInfoUpdate(
            session_update="session_info_update", title=turn.session.title, updated_at=turn.session.touch()
        )
    )
    used = 1_000 + 750 * turn.number + len(turn.text)
    await turn.send(
        UsageUpdate(
            session_update="usage_update",
            used=used,
            size=CONTEXT_SIZE,
            cost=Cost(amount=round(used * 0.000002, 6), currency="USD"),
        )
    )
    return "end_turn"


def _thought(turn: Turn) -> str:
    prompt = " ".join(turn.text.split())
    quoted = prompt if len(prompt) <= 60 else prompt[:59] + "…"
    opening = f"The user wrote “{quoted}”." if prompt else "The user sent attachments but no text."
    return (
        f"{opening} I am a demo agent without a model, so I will show what I can do: "
        f"a plan, some markdown, tools and a file. Mode: {turn.session.mode_id}, "
        f"model: {turn.session.model}."
    )


def _in_cwd(turn: Turn, name: str) -> str:
    return str(Path(turn.session.cwd) / name)


async def _read(turn: Turn) -> None:
    tool_id = turn.tool_id("read")
    path = _in_cwd(turn, "README.md")
    await turn.send(
        ToolCallStart(
            session_update="tool_call",
            tool_call_id=tool_id,
            title="Read README.md",
            kind="read",
            status="in_progress",
            locations=[ToolCallLocation(path=path, line=1)],
            raw_input={"path": path},
        )
    )
    await turn.pause()
    await turn.send(
        ToolCallProgress(
            session_update="tool_call_update",
            tool_call_id=tool_id,
            status="completed",
            content=_text(f"```markdown\n{README_TEXT}```"),
        )
    )
    await turn.pause()


async def _search(turn: Turn) -> None:
    tool_id = turn.tool_id("search")
    await turn.send(
        ToolCallStart(
            session_update="tool_call",
            tool_call_id=tool_id,
            title='Search for "hello"',
            kind="search",
            status="in_progress",
            raw_input={"pattern": "hello", "path": turn.session.cwd},
        )
    )
    await turn.pause()
    await turn.send(
        ToolCallProgress(
            session_update="tool_call_update",
            tool_call_id=tool_id,
            status="completed",
            locations=[
                ToolCallLocation(path=_in_cwd(turn, "hello.py"), line=1),
                ToolCallLocation(path=_in_cwd(turn, "README.md"), line=1),
            ],
            content=_text("2 matches: `hello.py:1`, `README.md:1`"),
        )
    )
    await turn.pause()


async def _edit(turn: Turn) -> None:
    """Asks permission first (unless "Always allow" was chosen earlier in this session). The file is
    not really edited: the diff is for show."""
    tool_id = turn.tool_id("edit")
    path = _in_cwd(turn, "hello.py")
    diff: ToolContent = [
        FileEditToolCallContent(type="diff", path=path, old_text=OLD_HELLO, new_text=NEW_HELLO)
    ]
    locations = [ToolCallLocation(path=path, line=1)]
    await turn.send(
        ToolCallStart(
            session_update="tool_call",
            tool_call_id=tool_id,
            title="Edit hello.py",
            kind="edit",
            status="pending",
            content=diff,
            locations=locations,
            raw_input={"path": path, "old_text": OLD_HELLO, "new_text": NEW_HELLO},
        )
    )
    if turn.session.always_allow_edits:
        outcome_id: str | None = "allow-always"
    else:
        request = ToolCallUpdate(
            tool_call_id=tool_id,
            title="Edit hello.py",
            kind="edit",
            status="pending",
            content=diff,
            locations=locations,
        )
        try:
            outcome = await turn.ask_permission(request, PERMISSION_OPTIONS)
            if outcome is not None and outcome.outcome == "cancelled":
                raise TurnCancelled
        except TurnCancelled:
            rejected = _text("Edit rejected: the permission request was cancelled; hello.py is unchanged.")
            await turn.send(
                ToolCallProgress(
                    session_update="tool_call_update", tool_call_id=tool_id, status="failed", content=rejected
                ),
                force=True,
            )
            raise
        outcome_id = getattr(outcome, "option_id", None)
    if outcome_id not in ALLOW_IDS:
        await turn.send(
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id=tool_id,
                status="failed",
                content=_text("Edit rejected by the user; hello.py is unchanged."),
            )
        )
        await turn.pause()
        return
    if outcome_id == "allow-always":
        turn.session.always_allow_edits = True
    await turn.send(
        ToolCallProgress(session_update="tool_call_update", tool_call_id=tool_id, status="in_progress")
    )
    await turn.pause()
    await turn.send(
        ToolCallProgress(
            session_update="tool_call_update", tool_call_id=tool_id, status="completed", content=diff
        )
    )
    await turn.pause()


async def _execute(turn: Turn) -> None:
    """With `_meta.terminal_output` the client gets a live terminal card (Zed's convention);
    otherwise the output arrives once, as a ```console block."""
    tool_id = turn.tool_id("execute")
    raw_input = {"command": COMMAND, "cwd": turn.session.cwd}
    if not turn.terminal_output:
        await turn.send(
            ToolCallStart(
                session_update="tool_call",
                tool_call_id=tool_id,
                title=COMMAND,
                kind="execute",
                status="in_progress",
                raw_input=raw_input,
            )
        )
        await turn.pause()
        await turn.send(
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id=tool_id,
                status="completed",
                content=_text(f"```console\n$ {COMMAND}\n{CONSOLE_OUTPUT}```"),
                raw_output={"exit_code": 0},
            )
        )
        await turn.pause()
        return
    terminal_id = f"demo-term-{turn.number}"
    await turn.send(
        ToolCallStart(
            session_update="tool_call",
            tool_call_id=tool_id,
            title=COMMAND,
            kind="execute",
            status="in_progress",
            content=[TerminalToolCallContent(type="terminal", terminal_id=terminal_id)],
            raw_input=raw_input,
            field_meta={"terminal_info": {"terminal_id": terminal_id, "cwd": turn.session.cwd}},
        )
    )
    await turn.pause()
    for data in TERMINAL_OUTPUT:
        await turn.send(
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id=tool_id,
                field_meta={"terminal_output": {"terminal_id": terminal_id, "data": data}},
            )
        )
        await turn.pause()
    await turn.send(
        ToolCallProgress(
            session_update="tool_call_update",
            tool_call_id=tool_id,
            status="completed",
            raw_output={"exit_code": 0},
            field_meta={"terminal_exit": {"terminal_id": terminal_id, "exit_code": 0, "signal": None}},
        )
    )
    await turn.pause()


def _notes_text(turn: Turn) -> str:
    return (
        "# ClawQt demo notes\n\n"
        f"Written by the demo agent in turn {turn.number} of session `{turn.session.session_id}`.\n\n"
        f"- Prompt: {' '.join(turn.text.split()) or '(no text)'}\n"
        f"- Mode: {turn.session.mode_id}\n"
        f"- Model: {turn.session.model}\n"
    )


async def _notes_link(turn: Turn) -> None:
    """Really writes the notes file in the session cwd, then links it; a write failure is reported in
    the chat instead of a link."""
    message_id = turn.message_id("answer-2")
    path = Path(turn.session.cwd).expanduser().resolve() / NOTES_FILE
    data = _notes_text(turn).encode("utf-8")
    try:
        path.write_bytes(data)
    except OSError as exc:
        log.warning("demo-agent: cannot write %s: %s", path, exc)
        block: TextContentBlock | ResourceContentBlock = TextContentBlock(
            type="text", text=f"(Could not write `{NOTES_FILE}`: {exc.strerror or exc}.)"
        )
    else:
        block = ResourceContentBlock(
            type="resource_link",
            uri=path.as_uri(),
            name=NOTES_FILE,
            title="Demo notes",
            mime_type="text/markdown",
            size=len(data),
        )
    lead = TextContentBlock(type="text", text="I wrote some notes for you: ")
    for content in (lead, block):
        await turn.send(
            AgentMessageChunk(session_update="agent_message_chunk", content=content, message_id=message_id)
        )
        await turn.pause()
