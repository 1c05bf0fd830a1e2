"""`/terminals` and `/terminal ...`: the demo agent using ClawQt's terminal tools, for users without
OpenClaw (and as a real MCP client in tests).

    /terminals                  list_terminals
    /terminal read [ID]         read_terminal (no ID: the terminal the user used most recently)
    /terminal type ID TEXT      send_terminal_input, TEXT then Enter ("\\r")
    /terminal interrupt ID      send_terminal_input with interrupt (Ctrl-C)
    /terminal open COMMAND      open_terminal; asks again with the same requestId while the answer is
                                "pending" (the user has not opened the tab yet), up to OPEN_PATIENCE s

Each call is shown as an ACP tool call (kind read or execute, its arguments without the capability,
the result as text) and answered in a message; a refusal's own sentence is the answer. The
capability itself never appears in anything the agent sends back.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from acp.schema import ContentToolCallContent, TextContentBlock, ToolCallProgress, ToolCallStart

from app.demo_agent.terminal_tools_client import (
    McpServerRef,
    TerminalToolsConnection,
    ToolAnswer,
    connect,
    failure,
    pick_server,
)
from app.demo_agent.turn import StopReason, Turn, TurnCancelled

# The user has 30 s to open a requested terminal; a few seconds more to hear that it expired.
OPEN_PATIENCE_SECONDS = 35.0
# A server that answers "pending" at once is asked again after this long (ClawQt's waits 10 s itself).
OPEN_RETRY_PAUSE_SECONDS = 1.0
READ_BYTES = 8192

USAGE = """**Terminal commands** (ClawQt's terminal tools)

- `/terminals`: the terminals you share with this chat
- `/terminal read [ID]`: a terminal's newest output (no ID: the one you used last)
- `/terminal type ID TEXT`: type TEXT into terminal ID and press Enter
- `/terminal interrupt ID`: send Ctrl-C to terminal ID
- `/terminal open COMMAND`: ask you to open a new terminal that runs COMMAND
"""
NO_SERVER = (
    "No terminal server was given to this chat: the client named no HTTP MCP server when it opened the "
    "session, so I cannot see your terminals (ClawQt names its own while terminal access for agents is on)."
)
WAITING = "Waiting for you to open the terminal in the terminal panel…"


@dataclass(frozen=True)
class Action:
    tool: str  # the MCP tool
    arguments: dict[str, Any]  # without the capability
    title: str
    kind: Literal["read", "execute"]


def parse_action(name: str, args: str) -> Action | None:
    """The tool call a command asks for; None: not a well-formed terminal command."""
    words = args.split()
    if name == "terminals":
        return Action("list_terminals", {}, "List terminals", "read") if not words else None
    verb = words[0] if words else ""
    if verb == "read" and len(words) <= 2:
        terminal = words[1] if len(words) == 2 else None
        arguments = {"terminalId": terminal} if terminal else {}
        title = f"Read terminal {terminal}" if terminal else "Read the terminal you used last"
        return Action("read_terminal", {**arguments, "maxBytes": READ_BYTES}, title, "read")
    if verb == "type" and len(words) >= 3:
        terminal = words[1]
        text = args.strip()[len("type") :].strip()[len(terminal) :].strip()
        return Action(
            "send_terminal_input",
            {"terminalId": terminal, "text": text + "\r"},
            f"Type in {terminal}",
            "execute",
        )
    if verb == "interrupt" and len(words) == 2:
        return Action(
            "send_terminal_input",
            {"terminalId": words[1], "interrupt": True},
            f"Ctrl-C in {words[1]}",
            "execute",
        )
    if verb == "open" and len(words) >= 2:
        command = args.strip()[len("open") :].strip()
        return Action("open_terminal", {"command": command}, f"Open a terminal: {command}", "execute")
    return None


def code_span(text: str) -> str:
    """`text` as inline code, whatever backticks it holds."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{fence}{padded}{fence}"


def console_block(output: str) -> str:
    """Output in a ```console block whose fence no line of the output can close."""
    longest = max((len(run) for run in re.findall(r"`{3,}", output)), default=0)
    fence = "`" * max(3, longest + 1)
    body = output.rstrip("\n") or "(no output yet)"
    return f"{fence}console\n{body}\n{fence}"


def _string(payload: dict[str, Any], key: str, default: str = "") -> str:
    value = payload.get(key)
    return value if isinstance(value, str) else default


async def run_terminal_command(turn: Turn, name: str, args: str) -> StopReason:
    action = parse_action(name, args)
    if action is None:
        await turn.stream(USAGE, part="answer")
        return "end_turn"
    server = pick_server(turn.session.mcp_servers)
    if server is None:
        await turn.stream(NO_SERVER, part="answer")
        return "end_turn"
    arguments = dict(action.arguments)
    if action.tool == "open_terminal":
        arguments["requestId"] = f"demo-{uuid.uuid4().hex}"
    tool_id = turn.tool_id(action.tool)
    await turn.send(
        ToolCallStart(
            session_update="tool_call",
            tool_call_id=tool_id,
            title=action.title,
            kind=action.kind,
            status="in_progress",
            raw_input={"tool": action.tool, **arguments},
        )
    )
    if turn.context_token:
        arguments["contextToken"] = turn.context_token  # the server's own bearer stands for the chat else

    async def call(tools: TerminalToolsConnection) -> ToolAnswer:
        if action.tool == "open_terminal":
            return await _open(turn, tools, arguments)
        return await tools.call(action.tool, arguments)

    answer = await turn.race(_connected(server, call))
    await turn.send(
        ToolCallProgress(
            session_update="tool_call_update",
            tool_call_id=tool_id,
            status="completed" if answer.ok else "failed",
            content=[
                ContentToolCallContent(
                    type="content", content=TextContentBlock(type="text", text=_card_text(action, answer))
                )
            ],
        )
    )
    await turn.stream(_reply(action, answer), part="answer")
    return "end_turn"


async def _connected(
    server: McpServerRef, call: Callable[[TerminalToolsConnection], Awaitable[ToolAnswer]]
) -> ToolAnswer:
    try:
        async with connect(server) as tools:
            return await call(tools)
    except TurnCancelled:
        raise
    except Exception as error:  # the server could not be reached or broke the protocol
        return failure(error)


async def _open(turn: Turn, tools: TerminalToolsConnection, arguments: dict[str, Any]) -> ToolAnswer:
    """open_terminal, asked again with the same requestId while the user has not opened it."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + OPEN_PATIENCE_SECONDS
    told = False
    while True:
        asked = loop.time()
        answer = await tools.call("open_terminal", arguments)
        if not answer.ok or answer.payload.get("state") != "pending" or loop.time() >= give_up:
            return answer
        if not told:
            told = True
            await turn.stream(WAITING + "\n\n", part="waiting")
        if loop.time() - asked < OPEN_RETRY_PAUSE_SECONDS:
            await asyncio.sleep(OPEN_RETRY_PAUSE_SECONDS)


def _card_text(action: Action, answer: ToolAnswer) -> str:
    """What the tool card shows: the result as the tool gave it, in words."""
    if not answer.ok:
        return f"Refused ({answer.code}): {answer.message}" if answer.code else answer.message
    payload = answer.payload
    if action.tool == "read_terminal":
        facts = [_string(payload, "terminalId", "?"), _string(payload, "status", "?")]
        if isinstance(payload.get("nextSequence"), int):
            facts.append(f"nextSequence {payload['nextSequence']}")
        if payload.get("excludedOutput") is True:
            facts.append("some output withheld (sharing was paused)")
        return console_block(_string(payload, "output")) + "\n\n" + " · ".join(facts)
    if action.tool == "list_terminals":
        return _terminal_lines(payload) or "No terminal is shared with this chat."
    if action.tool == "open_terminal":
        return f"state: {_string(payload, 'state', '?')} · terminal {_string(payload, 'terminalId', '?')}"
    return "Sent." if payload.get("sent") is True else f"Answer: {payload}"


def _terminal_lines(payload: dict[str, Any]) -> str:
    sessions = payload.get("sessions")
    lines = []
    for entry in sessions if isinstance(sessions, list) else []:
        if isinstance(entry, dict):
            lines.append(
                f"- **{_string(entry, 'terminalId', '?')}** {_string(entry, 'title')}: "
                f"{_string(entry, 'status', '?')}, {_string(entry, 'agentMode', '?')}"
                + (" (opened by an agent)" if entry.get("openedByAgent") is True else "")
            )
    return "\n".join(lines)


def _reply(action: Action, answer: ToolAnswer) -> str:
    """The agent's answer: what it got, or the refusal's message."""
    if not answer.ok:
        return f"The terminal tools said no: {answer.message}"
    payload = answer.payload
    terminal = _string(payload, "terminalId") or str(action.arguments.get("terminalId", ""))
    if action.tool == "list_terminals":
        lines = _terminal_lines(payload)
        if not lines:
            return "No terminal is shared with this chat. Share one from the terminal panel (Ctrl+`)."
        return "Terminals shared with this chat:\n\n" + lines
    if action.tool == "read_terminal":
        reply = f"Terminal **{terminal}** ({_string(payload, 'status', '?')}) shows:\n\n"
        reply += console_block(_string(payload, "output"))
        if payload.get("excludedOutput") is True:
            reply += "\n\nSome of its output was withheld: you paused sharing while it arrived."
        return reply
    if action.tool == "send_terminal_input":
        if action.arguments.get("interrupt"):
            return f"I sent Ctrl-C to **{terminal}**."
        typed = str(action.arguments.get("text", "")).removesuffix("\r")
        return f"I typed {code_span(typed)} into **{terminal}** and pressed Enter."
    command = code_span(str(action.arguments.get("command", "")))
    state = _string(payload, "state")
    if state == "started":
        return f"You opened terminal **{terminal}**; it runs {command}."
    if state == "expired":
        return f"The request for terminal **{terminal}** expired: it was not opened, so {command} never ran."
    if state == "pending":
        return f"You have not opened terminal **{terminal}**; unopened, it expires and {command} never runs."
    return f"Terminal **{terminal}** could not start ({state or 'no state'}); {command} did not run."
