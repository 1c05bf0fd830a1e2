"""Slash commands: what the client is told is available, and what each one answers (the terminal
commands are in terminal_commands.py)."""

from __future__ import annotations

import re

from acp.schema import (
    AvailableCommand,
    AvailableCommandInput,
    AvailableCommandsUpdate,
    UnstructuredCommandInput,
)

from app.demo_agent.proposal_command import run_propose
from app.demo_agent.terminal_commands import run_terminal_command
from app.demo_agent.turn import StopReason, Turn

COMMANDS: list[AvailableCommand] = [
    AvailableCommand(name="help", description="List what the demo agent can do"),
    AvailableCommand(
        name="echo",
        description="Repeat the text back",
        input=AvailableCommandInput(root=UnstructuredCommandInput(hint="text to repeat")),
    ),
    AvailableCommand(name="terminals", description="List the terminals you share with this chat"),
    AvailableCommand(
        name="terminal",
        description="Read, type into, interrupt or open one of your terminals",
        input=AvailableCommandInput(
            root=UnstructuredCommandInput(hint="read [ID] | type ID TEXT | interrupt ID | open COMMAND")
        ),
    ),
    AvailableCommand(
        name="propose",
        description="Propose a command for your terminal (you confirm it on a card)",
        input=AvailableCommandInput(root=UnstructuredCommandInput(hint="command to propose")),
    ),
]

HELP_TEXT = """**Demo agent commands**

- `/help`: this list
- `/echo TEXT`: answers with TEXT, nothing else
- `/terminals`: the terminals you share with this chat (ClawQt's terminal tools)
- `/terminal read [ID]`, `/terminal type ID TEXT`, `/terminal interrupt ID`, `/terminal open COMMAND`
- `/propose COMMAND`: proposes COMMAND as a card in ClawQt; it runs only if you confirm it
  (`/propose --without-asking COMMAND`: without asking permission first, as some agents' shells do)
  (`--split right` offers a split pane beside your terminal; `--profile zsh` opens it with that shell)

Any prompt containing the word *slow* streams for about 20 seconds (try cancelling it).
Anything else runs the showcase turn: thoughts, a plan, markdown, tool calls, a permission request,
a terminal and a file link.
"""

_COMMAND = re.compile(r"/(\S+)\s?(.*)", re.DOTALL)


def commands_update() -> AvailableCommandsUpdate:
    """The available_commands_update sent after session/new, load and resume."""
    return AvailableCommandsUpdate(session_update="available_commands_update", available_commands=COMMANDS)


def parse_command(text: str) -> tuple[str, str] | None:
    """("echo", "hi") for "/echo hi"; None when the prompt is not a slash command."""
    match = _COMMAND.fullmatch(text.strip())
    if match is None:
        return None
    return match.group(1), match.group(2)


async def run_command(turn: Turn, name: str, args: str) -> StopReason:
    """One agent message per command; unknown commands get a pointer to /help."""
    if name in ("terminals", "terminal"):
        return await run_terminal_command(turn, name, args)
    if name == "propose":
        return await run_propose(turn, args)
    if name == "help":
        reply = HELP_TEXT
    elif name == "echo":
        reply = args if args else "Usage: `/echo TEXT`"
    else:
        reply = f"Unknown command `/{name}`. Try `/help`."
    await turn.stream(reply, part="answer")
    return "end_turn"
