"""Prompt scripts of the scripted agent about client terminals (`terminal/*`): created, killed, released,
held, refused outside the workspace, processes that escape their group, output before the card exists,
Stop while one runs. Registered in scripted_agent.py's PROMPTS."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any


async def prompt_term_stop(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """Starts a client terminal that runs for minutes, shows it in a tool card, and when cancelled
    answers `cancelled` WITHOUT killing or releasing it (like fast-agent)."""
    cwd = agent.sessions.get(sid, {}).get("cwd") or "."
    created = await agent.request(
        "terminal/create",
        {
            "sessionId": sid,
            "command": "bash",
            "args": ["-c", "echo started; echo $$ > stop.pid; exec sleep 300"],
            "cwd": cwd,
        },
    )
    terminal_id = created.get("terminalId") if isinstance(created, dict) else None
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-stop",
            "title": "sleep 300",
            "kind": "execute",
            "status": "in_progress",
            "content": [{"type": "terminal", "terminalId": terminal_id}],
        },
    )
    for _ in range(600):
        if sid in agent.cancelled:
            return "cancelled"
        await asyncio.sleep(0.05)  # the poll's interval
    return "end_turn"


async def prompt_term_hostile(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """terminal/create with what no process can be started with: each answer, as JSON lines."""
    cwd = agent.sessions.get(sid, {}).get("cwd") or "."
    attempts = [
        {"env": [{"name": "A=B", "value": "x"}]},
        {"env": [{"name": "GOOD", "value": "nul\u0000inside"}]},
        {"args": ["-c", "echo a\u0000b"]},
        {"env": [{"name": "", "value": "x"}]},
        {"env": ["not an object"]},
        {"args": ["-c", 42]},
    ]
    answers = []
    for attempt in attempts:
        request = {"sessionId": sid, "command": "bash", "args": ["-c", "echo hi"], "cwd": cwd, **attempt}
        answer = await agent.request_raw("terminal/create", request)
        answers.append(answer.get("error", {}).get("message") if "error" in answer else answer.get("result"))
    agent.chunk(sid, json.dumps(answers))
    return "end_turn"


async def prompt_term_escape(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """A client terminal whose command starts processes that leave its process group: one with
    setsid, one double-forked (its parent exits); their pids go to escaped.pid / orphan.pid."""
    cwd = agent.sessions.get(sid, {}).get("cwd") or "."
    script = (
        "setsid sleep 300 & echo $! > escaped.pid; "
        "(sleep 300 & echo $! > orphan.pid); "
        "echo started; exec sleep 300"
    )
    created = await agent.request(
        "terminal/create", {"sessionId": sid, "command": "bash", "args": ["-c", script], "cwd": cwd}
    )
    agent.chunk(sid, json.dumps(created))
    return "end_turn"


async def prompt_agent_escape(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """The agent itself starts a process in a session of its own (pid in agent-escaped.pid)."""
    import subprocess

    cwd = agent.sessions.get(sid, {}).get("cwd") or "."
    child = subprocess.Popen(["sleep", "300"], start_new_session=True, cwd=cwd)
    with open(os.path.join(cwd, "agent-escaped.pid"), "w") as handle:
        handle.write(str(child.pid))
    agent.chunk(sid, "started a daemon")
    return "end_turn"


async def prompt_term_early(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """Output and exit before the card, and output for an id nobody ever names."""
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-other",
            "title": "other",
            "status": "in_progress",
        },
    )
    agent.tool_update(
        sid,
        "t-other",
        title="other (still applied)",
        status="completed",
        _meta={
            "terminal_output": {"terminal_id": "T-early", "data": "early output\n"},
            "terminal_exit": {"terminal_id": "T-early", "exit_code": 0},
            "terminal_output_delta": {"terminal_id": "T-nobody", "data": "lost"},
        },
    )
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-early",
            "title": "late card",
            "kind": "execute",
            "status": "completed",
            "_meta": {"terminal_info": {"terminal_id": "T-early", "cwd": "/late"}},
        },
    )
    return "end_turn"


async def prompt_term_create(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """The client's own terminal: terminal/create with a byte limit, embedded in a tool card, then
    output, wait_for_exit and release; reports what it saw as JSON."""
    cwd = agent.sessions.get(sid, {}).get("cwd") or "."
    created = await agent.request(
        "terminal/create",
        {
            "sessionId": sid,
            "command": "bash",
            "args": [
                "-c",
                "for i in $(seq 1 400); do printf '\u00e9t\u00e9-%03d ' $i; done; echo; echo done",
            ],
            "env": [{"name": "CLAWQT_TERM_MARK", "value": "merged"}],
            "cwd": cwd,
            "outputByteLimit": 1000,
        },
    )
    terminal_id = created.get("terminalId") if isinstance(created, dict) else None
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-create",
            "title": "bash -c loop",
            "kind": "execute",
            "status": "in_progress",
            "content": [{"type": "terminal", "terminalId": terminal_id}],
        },
    )
    status = await agent.request("terminal/wait_for_exit", {"sessionId": sid, "terminalId": terminal_id})
    output = await agent.request("terminal/output", {"sessionId": sid, "terminalId": terminal_id})
    await agent.request("terminal/release", {"sessionId": sid, "terminalId": terminal_id})
    agent.tool_update(sid, "t-create", status="completed")
    text = output.get("output", "") if isinstance(output, dict) else ""
    agent.chunk(
        sid,
        json.dumps(
            {
                "terminalId": terminal_id,
                "status": status,
                "bytes": len(text.encode()),
                "truncated": output.get("truncated") if isinstance(output, dict) else None,
                "tail": text[-12:],
                "valid_utf8_start": not text[:1].isspace(),
            }
        ),
    )
    return "end_turn"


async def prompt_term_kill(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    cwd = agent.sessions.get(sid, {}).get("cwd") or "."
    created = await agent.request(
        "terminal/create",
        {"sessionId": sid, "command": "bash", "args": ["-c", "echo started; sleep 30"], "cwd": cwd},
    )
    terminal_id = created.get("terminalId")
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-kill",
            "title": "sleep 30",
            "kind": "execute",
            "status": "in_progress",
            "content": [{"type": "terminal", "terminalId": terminal_id}],
        },
    )
    for _ in range(200):  # until the shell has spoken (a loaded machine can take a while)
        seen = await agent.request("terminal/output", {"sessionId": sid, "terminalId": terminal_id})
        if "started" in (seen or {}).get("output", ""):
            break
        await asyncio.sleep(0.05)  # the poll's interval
    await agent.request("terminal/kill", {"sessionId": sid, "terminalId": terminal_id})
    status = await agent.request("terminal/wait_for_exit", {"sessionId": sid, "terminalId": terminal_id})
    output = await agent.request("terminal/output", {"sessionId": sid, "terminalId": terminal_id})
    agent.chunk(sid, json.dumps({"status": status, "output": output}))
    return "end_turn"


async def prompt_term_outside(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    response = await agent.request_raw("terminal/create", {"sessionId": sid, "command": "ls", "cwd": "/"})
    agent.chunk(sid, json.dumps(response))
    return "end_turn"


async def prompt_term_hold(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """Starts a long-running client terminal and ends the turn without releasing it."""
    cwd = agent.sessions.get(sid, {}).get("cwd") or "."
    created = await agent.request(
        "terminal/create",
        {
            "sessionId": sid,
            "command": "bash",
            "args": ["-c", "echo $$ > held.pid; exec sleep 300"],
            "cwd": cwd,
        },
    )
    agent.chunk(sid, json.dumps(created))
    return "end_turn"


PROMPTS = {
    "term-stop": prompt_term_stop,
    "term-hostile": prompt_term_hostile,
    "term-escape": prompt_term_escape,
    "agent-escape": prompt_agent_escape,
    "term-early": prompt_term_early,
    "term-create": prompt_term_create,
    "term-kill": prompt_term_kill,
    "term-outside": prompt_term_outside,
    "term-hold": prompt_term_hold,
}
