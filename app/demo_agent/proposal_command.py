"""`/propose COMMAND`: the demo agent proposing a terminal action to ClawQt the way an agent with a
model does it through its exec tool (harness/reference/terminal-proposals.md).

    1. the canonical invocation template comes from the prompt's hidden context (ClawQt's line
       `"<clawqt>" propose-terminal-actions --channel v1.… --payload-json 'PAYLOAD'`);
    2. the payload: "Run it" (send COMMAND to the terminal the user used last, recommended) or "Run it
       in a new tab" (open_and_send in the session folder), compact JSON with `'` as \\u0027;
    3. `session/request_permission` for an execute tool call whose rawInput is `{"command": <canonical>}`
       (OpenClaw's exec tool shape; ClawQt answers AllowOnce silently for exactly that command);
       (`/propose --without-asking COMMAND` skips this step, as an agent whose exec runs commands
       without asking does: ClawQt takes the message's channel as armed by the message itself);
    4. once allowed, the command runs as a real `/bin/sh -c` process; each JSON line it prints is said as
       it arrives (validation, then the user's decision) and added to the tool call.

The agent decides nothing about the terminal: ClawQt validates, shows the card, and only the user's
confirmation runs COMMAND. A missing template, a refused permission and any output of the CLI
(garbage, no lines, a crash) become a sentence, never an exception out of the turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass
from typing import Any

from acp.schema import (
    ContentToolCallContent,
    PermissionOption,
    TextContentBlock,
    ToolCallProgress,
    ToolCallStart,
    ToolCallStatus,
    ToolCallUpdate,
)

from app.contract.hidden_context import OPEN
from app.contract.proposals import CLI_COMMAND
from app.contract.user_terminals import SPLIT_DIRECTIONS
from app.demo_agent.proposal_templates import ProposalTemplate
from app.demo_agent.terminal_commands import code_span, console_block
from app.demo_agent.turn import StopReason, ToolContent, Turn, TurnCancelled

# the line ClawQt's hidden context carries: the executable (absolute, double-quoted), the channel, and
# PAYLOAD where the compact JSON goes
_TEMPLATE = re.compile(
    r'^"(?P<executable>/[^"\n]*)" '
    + re.escape(CLI_COMMAND)
    + r" --channel (?P<channel>v1\.[0-9a-f]{32}\.[0-9a-f]{32}) --payload-json 'PAYLOAD'$",
    re.MULTILINE,
)
PERMISSION_OPTIONS = [
    PermissionOption(option_id="allow_once", name="Allow once", kind="allow_once"),
    PermissionOption(option_id="reject_once", name="Reject", kind="reject_once"),
]
MAX_LINE_BYTES = 64 * 1024  # the CLI prints lines of at most 49 KiB
MAX_LINES = 2  # validation, final: anything after them is not read
MAX_SAID_CHARS = 500  # of an odd line or the CLI's stderr, in the reply

USAGE = (
    "Usage: `/propose [--without-asking] [--after SECONDS] [--split DIRECTION] [--profile SHELL] "
    "COMMAND`: I propose COMMAND for your terminal; it runs only if you confirm. `--without-asking`: I "
    "run the proposal command without asking permission first. `--after`: I think that long first (at "
    "most 600 s). `--split right|left|up|down|auto`: my second choice opens a split pane beside your "
    "terminal instead of a tab; `--profile`: with that shell (bash, zsh, sh...)."
)
WITHOUT_ASKING = "--without-asking"
AFTER = "--after"
SPLIT = "--split"
PROFILE = "--profile"
MAX_AFTER_S = 600.0


@dataclass(frozen=True)
class ProposeOptions:
    command: str
    asks: bool = True
    after: float = 0.0
    split: str = ""  # the second choice opens a split pane on this side ("": a tab)
    profile: str = ""


def proposal_options(args: str) -> ProposeOptions | None:
    """The options of `[--without-asking] [--after SECONDS] [--split DIRECTION] [--profile SHELL]
    COMMAND`; None when an option's value is missing or out of range."""
    words = args.strip().split(" ")
    found: dict[str, Any] = {}
    while words and words[0] in (WITHOUT_ASKING, AFTER, SPLIT, PROFILE):
        option = words.pop(0)
        if option == WITHOUT_ASKING:
            found["asks"] = False
            continue
        value = words.pop(0) if words else ""
        if (option == SPLIT and value not in SPLIT_DIRECTIONS) or (option == PROFILE and not value):
            return None
        if option in (SPLIT, PROFILE):
            found[option[2:]] = value
            continue
        try:
            found["after"] = float(value)
        except ValueError:
            return None
        if not 0 <= found["after"] <= MAX_AFTER_S:
            return None
    return ProposeOptions(" ".join(words).strip(), **found)


NO_PROPOSALS = (
    "This client does not take proposals: its prompt carried no `propose-terminal-actions` command, so "
    "I cannot offer you a command to confirm. (ClawQt adds one to each message while it can show cards.)"
)
WAITING = "ClawQt accepted the proposal; waiting for you…"
FINALS = {
    "confirmed": "You confirmed it: ClawQt ran it in your terminal.",
    "cancelled": "You cancelled it: nothing ran.",
    "superseded": "A newer message replaced it: nothing ran.",
    "session_replaced": "The chat's session was replaced: nothing ran.",
    "timed_out": "Nobody answered within 10 minutes: nothing ran.",
    "unavailable": "ClawQt went away before you decided: nothing ran.",
}


def proposal_template(prompt_text: str) -> ProposalTemplate | None:
    """The last template in the prompt's hidden context (ClawQt appends it after the user's words, so a
    template the user typed earlier in the message is never the one used); None when there is none."""
    start = prompt_text.find(OPEN)
    if start < 0:
        return None
    matches = list(_TEMPLATE.finditer(prompt_text, start))
    if not matches:
        return None
    return ProposalTemplate(matches[-1]["executable"], matches[-1]["channel"])


def build_payload(command: str, cwd: str, split: str = "", profile: str = "") -> dict[str, Any]:
    """Run COMMAND where the user works (recommended), or in a new tab in the session folder (in a split
    pane on side `split` when given; with the shell `profile` when given)."""
    second: dict[str, Any] = {"type": "open_and_send", "target": "tab", "cwd": cwd, "input": command}
    if split:
        second.update(target="panel", direction=split)
    if profile:
        second["profile"] = profile
    where = "a split pane beside your terminal" if split else "a new tab"
    return {
        "schema_version": 1,
        "origin": "terminal_agent",
        "recommended_choice": 1,
        "choices": [
            {
                "choice": 1,
                "title": "Run it",
                "rationale": "Runs the command in the terminal you used last.",
                "actions": [{"type": "send", "input": command}],
            },
            {
                "choice": 2,
                "title": f"Run it in {where}",
                "rationale": "Opens a terminal in the session folder and runs the command there.",
                "actions": [second],
            },
        ],
    }


def read_line(raw: bytes) -> dict[str, Any] | None:
    """One line of the CLI's stdout as the JSON object it should be; None for anything else."""
    try:
        value = json.loads(raw.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _short(text: str) -> str:
    text = text.strip()
    return text if len(text) <= MAX_SAID_CHARS else text[: MAX_SAID_CHARS - 1] + "…"


def said(line: dict[str, Any] | None, raw: bytes) -> str:
    """What the reply says about one line: a sentence, then the line itself as the CLI printed it."""
    shown = console_block(_short(raw.decode("utf-8", errors="replace")))
    if line is None:
        return f"The proposal command printed something I cannot read:\n\n{shown}"
    status = _text(line.get("status")) or "(no status)"
    if line.get("phase") == "validation":
        if status == "accepted":
            return f"{WAITING}\n\n{shown}"
        reason = _short(_text(line.get("reason"))).rstrip(".")
        because = f": {reason}" if reason else ""
        return f"ClawQt did not take the proposal: {code_span(status)}{because}.\n\n{shown}"
    if line.get("phase") == "final":
        return f"{FINALS.get(status, f'It ended: {code_span(status)}.')}\n\n{shown}"
    return f"The proposal command printed a line I did not expect:\n\n{shown}"


async def run_propose(turn: Turn, args: str) -> StopReason:
    options = proposal_options(args)
    if options is None or not options.command:
        await turn.stream(USAGE, part="answer")
        return "end_turn"
    asks, after, command = options.asks, options.after, options.command
    if after:
        await turn.stream(f"Thinking for {after:g} s before I propose…\n\n", part="answer")
        await turn.pause(after)  # a Stop ends the turn cancelled here
    template = turn.proposal
    if template is None:
        await turn.stream(NO_PROPOSALS, part="answer")
        return "end_turn"
    invocation = template.command(build_payload(command, turn.session.cwd, options.split, options.profile))
    tool_id = turn.tool_id("propose")
    title = f"Propose {command}"
    raw_input = {"command": invocation}  # as OpenClaw's exec tool sends it
    await turn.send(
        ToolCallStart(
            session_update="tool_call",
            tool_call_id=tool_id,
            title=title,
            kind="execute",
            status="pending",
            raw_input=raw_input,
        )
    )
    request = ToolCallUpdate(
        tool_call_id=tool_id, title=title, kind="execute", status="pending", raw_input=raw_input
    )
    outcome = await turn.ask_permission(request, PERMISSION_OPTIONS) if asks else None
    if asks and getattr(outcome, "option_id", None) != "allow_once":
        turn.check()  # the user's Stop: the turn ends cancelled
        why = "cancelled" if getattr(outcome, "outcome", None) == "cancelled" else "refused"
        await _finish(turn, tool_id, "failed", [f"The permission was {why}."])
        await turn.stream(
            f"The permission to run the proposal command was {why}, so I proposed nothing.", part="answer"
        )
        return "end_turn"
    await turn.send(
        ToolCallProgress(session_update="tool_call_update", tool_call_id=tool_id, status="in_progress")
    )
    return await _run(turn, tool_id, invocation)


async def _run(turn: Turn, tool_id: str, invocation: str) -> StopReason:
    """The command as a real process: each line said as it arrives; the process ended on cancel."""
    try:
        process = await asyncio.create_subprocess_exec(
            "/bin/sh",
            "-c",
            invocation,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=turn.session.cwd,
            limit=MAX_LINE_BYTES,
        )
    except OSError as error:
        await _finish(turn, tool_id, "failed", [f"It could not start: {error}"])
        await turn.stream(f"The proposal command could not start: {error}", part="answer")
        return "end_turn"
    assert process.stdout is not None and process.stderr is not None
    shown: list[str] = []
    last: dict[str, Any] | None = None
    try:
        for _ in range(MAX_LINES):
            try:
                raw = await turn.race(process.stdout.readline())
            except ValueError:  # a line longer than the CLI ever prints
                raw = b"(a line longer than %d bytes)" % MAX_LINE_BYTES
            if not raw:
                break
            raw = raw.rstrip(b"\r\n")
            last = read_line(raw)
            shown.append(raw.decode("utf-8", errors="replace"))
            await turn.send(
                ToolCallProgress(
                    session_update="tool_call_update",
                    tool_call_id=tool_id,
                    status="in_progress",
                    content=_content(shown),
                )
            )
            await turn.stream(said(last, raw) + "\n\n", part="answer")
            if last is None or last.get("phase") != "validation" or last.get("status") != "accepted":
                break
        errors = await turn.race(process.stderr.read(MAX_LINE_BYTES))
        code = await turn.race(process.wait())
    except TurnCancelled:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        raise
    finally:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), 5)
    complete = last is not None and (last.get("phase") == "final" or last.get("status") != "accepted")
    if code != 0 or not complete:
        problem = _short(errors.decode("utf-8", errors="replace")) or "(nothing on stderr)"
        await _finish(turn, tool_id, "failed", [*shown, f"exit status {code}: {problem}"])
        await turn.stream(
            f"The proposal command ended with exit status {code} before ClawQt's answer was complete: "
            f"{code_span(problem)}",
            part="answer",
        )
        return "end_turn"
    await _finish(turn, tool_id, "completed", shown)
    return "end_turn"


def _content(lines: list[str]) -> ToolContent:
    text = console_block("\n".join(lines))
    return [ContentToolCallContent(type="content", content=TextContentBlock(type="text", text=text))]


async def _finish(turn: Turn, tool_id: str, status: ToolCallStatus, lines: list[str]) -> None:
    await turn.send(
        ToolCallProgress(
            session_update="tool_call_update", tool_call_id=tool_id, status=status, content=_content(lines)
        )
    )
