"""The proposal pipeline's test side: a payload, the permission request OpenClaw's exec tool makes,
the real CLI run through a shell and its lines read, and a clock a test moves."""

from __future__ import annotations

import asyncio
import json

from app.contract.proposals import (
    canonical_invocation,
    compact_payload,
)

OPTIONS = [
    {"optionId": "yes-once", "name": "Allow once", "kind": "allow_once"},
    {"optionId": "yes-always", "name": "Always", "kind": "allow_always"},
    {"optionId": "no", "name": "Deny", "kind": "reject_once"},
]


def payload(command: str) -> dict:
    return {
        "schema_version": 1,
        "origin": "terminal_agent",
        "recommended_choice": 1,
        "choices": [
            {
                "choice": 1,
                "title": "Mark it",
                "rationale": "Writes a marker file.",
                "actions": [{"type": "send", "input": command}],
            }
        ],
    }


def exec_call(command: str) -> dict:
    """OpenClaw's exec tool as a permission request carries it."""
    return {"toolCallId": "c1", "title": "exec", "kind": "execute", "rawInput": {"command": command}}


async def run_cli(command: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        "/bin/sh", "-c", command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )


async def accepted_proposal(service, executable, body) -> tuple[str, asyncio.subprocess.Process]:
    """chat-a's message proposes `body` through the real CLI, allowed as the exec tool asks: the
    accepted proposal's id and the CLI, still waiting for the user's decision."""
    channel = service.prompt_context("chat-a", 1, "turn-1").split("--channel ")[1].split(" ")[0]
    command = canonical_invocation(executable, channel, compact_payload(body))
    assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
    cli = await run_cli(command)
    first = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert first["status"] == "accepted", first
    return first["proposal_id"], cli


async def cli_lines(command: str, expect: int) -> list[dict]:
    process = await run_cli(command)
    lines = []
    for _ in range(expect):
        raw = await asyncio.wait_for(process.stdout.readline(), 15)
        if not raw:
            break
        lines.append(json.loads(raw))
    await asyncio.wait_for(process.wait(), 15)
    return lines


def status_of_line(lines: list[dict]) -> str:
    return lines[0]["status"]


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now
