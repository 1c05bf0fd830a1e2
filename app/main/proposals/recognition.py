"""Which permission requests run the proposal CLI, read from the tool call the way real agents send it.

`recognise(tool_call, executable)` answers one of three kinds, and the permission path acts on it:
- "canonical": the tool call runs exactly `canonical_invocation(executable, channel, payload)` and
  nothing else can change how it runs. The permission path answers AllowOnce (never AllowAlways) without
  asking the user and arms the channel with the payload's digest. This is the only silent allow ClawQt
  gives, so it is strict: the command must equal the canonical text byte for byte (re-rendered and
  compared, so a trailing space or newline, a second quote or a channel with a newline never passes);
  the payload holds no quote and no control character, so under POSIX shell quoting it is one inert word
  whatever it says (`;`, `$()`, backticks and `|` inside it are text); the executable must be our
  absolute path, spelled exactly (another path to the same file is another spelling); the tool call's
  kind is `execute`; and its raw input has no field that could change what runs or where
  (`RAW_INPUT_FIELDS`; e.g. `env` or `stdin` are refused, OpenClaw's `host` must be the gateway).
- "non_canonical": the command names the proposal CLI in any other form (pipes, redirects, here-docs,
  `;` / `&&` / `||` chains, extra arguments, env assignments, `$()` / backticks, other spellings, quote
  tricks, a shell wrapper we do not take) or a canonical command in a context we do not take. The
  permission path cancels it silently.
- "other": anything else; the normal permission UI asks the user.

Where the command is read (as the agents send it): rawInput `{"command": "..."}` (OpenClaw's exec
approvals with `name`, `approvalId`, `host`; Claude Code's Bash with `description`, `timeout`; codex-acp
with `cwd`), rawInput `{"command": [argv...]}` (Codex: `["bash", "-lc", "<command>"]`, or the CLI's own
argv with the payload as one argument), a bare string or argv list as rawInput, and the tool call's
`title` only when it has no rawInput at all. The title is then the whole command as the agent stated it;
a title the agent shortened never ends in the closing quote, so it never passes.

What no tool call shows cannot be checked here: an environment the agent's shell carries from earlier
commands, or a `PATH` that makes a bare `bash` another program. The executable is therefore named by its
absolute path and should not read its configuration from the environment.

Pure: no Qt, no I/O. POSIX quoting only (Windows' PowerShell form is not built yet)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Literal

from app.contract.acp_fields import stated_command
from app.contract.proposals import (
    CHANNEL_RE,
    CLI_COMMAND,
    ParsedInvocation,
    canonical_invocation,
    mentions_proposal_cli,
    parse_canonical,
)

RecognitionKind = Literal["canonical", "non_canonical", "other"]

# shells whose `-c` / `-lc` script is the command (Codex sends ["bash", "-lc", "<command>"])
SHELLS = frozenset(
    name for shell in ("sh", "bash", "zsh", "dash") for name in (shell, f"/bin/{shell}", f"/usr/bin/{shell}")
)
SHELL_FLAGS = frozenset({"-c", "-lc"})
# rawInput fields that describe a command without changing what runs, as the agents send them
RAW_INPUT_FIELDS = frozenset(
    {
        "command",
        "cwd",  # codex-acp; the executable is absolute, so the folder does not choose it
        "workdir",
        "directory",
        "description",  # Claude Code
        "timeout",
        "timeout_ms",
        "run_in_background",
        "reason",
        "justification",
        "with_escalated_permissions",  # leaving the agent's sandbox only lets the CLI reach the socket
        "sandbox_permissions",
        "dangerouslyDisableSandbox",
        "name",  # OpenClaw: the tool, "exec"
        "approvalId",
        "host",  # OpenClaw: where it runs; only the gateway (the machine ClawQt runs on) is taken
    }
)
SHELL_TOOL_NAMES = frozenset({"exec"})
LOCAL_HOSTS = frozenset({"gateway"})
# what may not be in our executable's path for the double-quoted form to be literal
_UNSAFE_EXECUTABLE = re.compile(r'["$`\\!\x00-\x1f\x7f]')
# what may not be in the payload for the single-quoted form to be one literal, compact word
_UNSAFE_PAYLOAD = re.compile("['\x00-\x1f\x7f]")
_QUOTING = re.compile(r"[\"'\\]")


@dataclass(frozen=True)
class Recognition:
    kind: RecognitionKind
    invocation: ParsedInvocation | None = None
    reason: str = ""  # why a command naming the CLI is not taken (for the log)


OTHER = Recognition("other")


def recognise(tool_call: Any, executable: str) -> Recognition:
    source = command_source(tool_call)
    if source is None:
        return OTHER
    invocation = _canonical(source, executable)
    if invocation is not None:
        problem = _context_problem(tool_call)
        if problem is None:
            return Recognition("canonical", invocation)
        return Recognition("non_canonical", reason=problem)
    if _mentions(source):
        return Recognition(
            "non_canonical", reason="it names the proposal CLI but is not the canonical command"
        )
    return OTHER


def command_source(tool_call: Any) -> str | list[Any] | None:
    """The command a permission request's tool call runs: a string, an argv list, or None; its title
    only when it has no rawInput at all (the proposal CLI's invocation stated whole)."""
    if isinstance(tool_call, dict) and tool_call.get("rawInput") is None:
        title = tool_call.get("title")
        return title if isinstance(title, str) else None
    return stated_command(tool_call)


def executable_is_quotable(executable: str) -> bool:
    """Whether `"<executable>"` is that path literally in a POSIX shell (absolute, nothing special)."""
    return bool(executable) and os.path.isabs(executable) and not _UNSAFE_EXECUTABLE.search(executable)


def _canonical(source: str | list[Any], executable: str) -> ParsedInvocation | None:
    if not executable_is_quotable(executable):
        return None
    if isinstance(source, str):
        parsed = parse_canonical(source, executable)
        if (
            parsed is None
            or not CHANNEL_RE.fullmatch(parsed.channel)
            or _UNSAFE_PAYLOAD.search(parsed.payload_json)
            or canonical_invocation(executable, parsed.channel, parsed.payload_json) != source
        ):
            return None
        return parsed
    if not all(isinstance(word, str) for word in source):
        return None
    if len(source) == 3 and source[0] in SHELLS and source[1] in SHELL_FLAGS:
        return _canonical(source[2], executable)
    if (
        len(source) == 6
        and source[0] == executable
        and source[1:3] == [CLI_COMMAND, "--channel"]
        and CHANNEL_RE.fullmatch(source[3])
        and source[4] == "--payload-json"
        and not _UNSAFE_PAYLOAD.search(source[5])
    ):
        return ParsedInvocation(executable, source[3], source[5])
    return None


def _context_problem(tool_call: dict[str, Any]) -> str | None:
    """Why a canonical command is still not taken silently, or None."""
    kind = tool_call.get("kind")
    if kind != "execute":
        return f"the tool call's kind is {kind!r}, not 'execute'"
    raw = tool_call.get("rawInput")
    if not isinstance(raw, dict):
        return None
    for key, value in raw.items():
        if key not in RAW_INPUT_FIELDS:
            return f"its raw input has the field {key!r}, which could change how the command runs"
        if key != "command" and not (value is None or isinstance(value, str | int | float | bool)):
            return f"its raw input field {key!r} is not a plain value"
    if raw.get("name") is not None and raw["name"] not in SHELL_TOOL_NAMES:
        return f"its tool is {raw['name']!r}, not a shell"
    if raw.get("host") is not None and raw["host"] not in LOCAL_HOSTS:
        return f"it runs on host {raw['host']!r}, not on this machine"
    return None


def _mentions(source: str | list[Any]) -> bool:
    text = source if isinstance(source, str) else " ".join(str(word) for word in source)
    if mentions_proposal_cli(text):
        return True
    return CLI_COMMAND in _QUOTING.sub("", text)  # propose-terminal-action"s", p\ropose-...
