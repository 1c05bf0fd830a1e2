"""Connecting OpenClaw to ClawQt's terminal tools, once, with OpenClaw's own command.

OpenClaw's ACP bridge refuses per-session MCP servers; its gateway keeps MCP servers in its config
(`mcp.servers.<name>`), written by `openclaw mcp set <name> '<json>'`. ClawQt runs exactly that command
with the same `openclaw` program and environment as the agent, only after the user agreed (the panel
shows the command first, the secret masked), and records the URL it connected so later prompts carry
the terminal context. Nothing here edits OpenClaw's files itself."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.main.core.process_tree import kill_tagged, new_scope, tagged_env
from app.main.openclaw.endpoint import embedding_env, is_openclaw_acp

SERVER_ENTRY = "clawqt-terminals"
CONNECT_TIMEOUT_SECONDS = 60.0
OUTPUT_CHARS = 4000


@dataclass(frozen=True)
class ConnectResult:
    ok: bool
    output: str  # what the command printed (bounded), for the user


def openclaw_cli(agent_argv: Sequence[str]) -> list[str] | None:
    """The `openclaw` program the agent runs (everything before its `acp` word), or None."""
    words = [w for w in agent_argv if w]
    if not is_openclaw_acp(words):
        return None
    for index, word in enumerate(words[:-1]):
        name = word.replace("\\", "/").rsplit("/", 1)[-1]
        if name in ("openclaw", "openclaw.mjs", "openclaw.cmd", "openclaw.exe") and words[index + 1] == "acp":
            return words[: index + 1]
    return None


def mcp_set_argv(cli: list[str], config: dict[str, Any]) -> list[str]:
    return [*cli, "mcp", "set", SERVER_ENTRY, json.dumps(config, separators=(",", ":"))]


def shown_command(argv: list[str], secret: str) -> str:
    """The command as the user sees it before agreeing: the secret masked."""
    return shlex.join(argv).replace(secret, secret[:8] + "\u2026")


async def run_mcp_set(argv: list[str], agent_argv: Sequence[str]) -> ConnectResult:
    """Run `openclaw mcp set ...` with the agent's environment; never raises."""
    env = dict(os.environ)
    for name, value in embedding_env(list(agent_argv)).items():
        env.setdefault(name, value)
    scope = new_scope("openclaw-mcp-set")
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env=tagged_env(env, scope),
            start_new_session=True,
        )
    except OSError as error:
        return ConnectResult(False, f"{argv[0]} could not start: {error}")
    try:
        output, _ = await asyncio.wait_for(process.communicate(), CONNECT_TIMEOUT_SECONDS)
    except TimeoutError:
        kill_tagged(scope)
        process.kill()
        await process.wait()
        return ConnectResult(
            False, f"openclaw mcp set did not finish within {CONNECT_TIMEOUT_SECONDS:.0f} s."
        )
    text = output.decode("utf-8", "replace")[-OUTPUT_CHARS:].strip()
    if process.returncode != 0:
        return ConnectResult(False, text or f"openclaw mcp set failed (exit code {process.returncode}).")
    return ConnectResult(True, text)
