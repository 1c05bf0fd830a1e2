"""Prompt scripts of the scripted agent about terminal output on the wire: the `_meta` terminal_output and
terminal_output_delta forms, the ACP v2 draft's chunks, a big output, a ```console block, the end of a
terminal. Registered in scripted_agent.py's PROMPTS."""

from __future__ import annotations

import asyncio
import base64
from typing import Any


async def prompt_term_end(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """claude-agent-acp style: the card first, all output once at the end, then the exit."""
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-end",
            "title": "ls --color",
            "kind": "execute",
            "status": "in_progress",
            "content": [
                {"type": "content", "content": {"type": "text", "text": "List the files"}},
                {"type": "terminal", "terminalId": "T-end"},
            ],
            "_meta": {"terminal_info": {"terminal_id": "T-end", "cwd": "/work"}},
        },
    )
    out = "\x1b[0m\x1b[01;34mdir\x1b[0m  \x1b[01;32mrun.sh\x1b[0m  notes.txt\n"
    agent.tool_update(sid, "t-end", _meta={"terminal_output": {"terminal_id": "T-end", "data": out}})
    agent.tool_update(
        sid,
        "t-end",
        status="completed",
        _meta={"terminal_exit": {"terminal_id": "T-end", "exit_code": 0, "signal": None}},
    )
    return "end_turn"


async def prompt_term_delta(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """codex-acp style: streamed terminal_output_delta (sent even without the capability), a progress
    bar redrawn with carriage returns, exit code 2."""
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-delta",
            "title": "make",
            "kind": "execute",
            "status": "in_progress",
            "content": [{"type": "terminal", "terminalId": "T-delta"}],
            "_meta": {"terminal_info": {"terminal_id": "T-delta", "cwd": "/src"}},
        },
    )
    for pct in (10, 50, 100):
        agent.tool_update(
            sid,
            "t-delta",
            _meta={"terminal_output_delta": {"terminal_id": "T-delta", "data": f"\rbuilding {pct:3d}%"}},
        )
        await asyncio.sleep(0.01)  # the agent's pace
    agent.tool_update(
        sid,
        "t-delta",
        _meta={"terminal_output_delta": {"terminal_id": "T-delta", "data": "\nerror: missing file\n"}},
    )
    agent.tool_update(
        sid,
        "t-delta",
        status="failed",
        _meta={"terminal_exit": {"terminal_id": "T-delta", "exit_code": 2, "signal": None}},
    )
    return "end_turn"


async def prompt_term_big(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """1 MB of coloured output streamed as 4 KB deltas (benchmarks and the large-output test)."""
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-big",
            "title": "cat big.log",
            "kind": "execute",
            "status": "in_progress",
            "content": [{"type": "terminal", "terminalId": "T-big"}],
            "_meta": {"terminal_info": {"terminal_id": "T-big", "cwd": "/logs"}},
        },
    )
    line = "\x1b[32mINFO\x1b[0m \x1b[1mworker\x1b[0m processed item {:06d} " + "." * 40 + "\n"
    data = "".join(line.format(i) for i in range(1024 * 1024 // 80))
    for start in range(0, len(data), 4096):
        agent.tool_update(
            sid,
            "t-big",
            _meta={"terminal_output_delta": {"terminal_id": "T-big", "data": data[start : start + 4096]}},
        )
    agent.tool_update(
        sid,
        "t-big",
        status="completed",
        _meta={"terminal_exit": {"terminal_id": "T-big", "exit_code": 0}},
    )
    return "end_turn"


async def prompt_term_console(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """No terminal data at all: the ```console fallback agents send to clients without the capability."""
    body = "```console\n$ make\n\x1b[31merror:\x1b[0m missing rule\n```"
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-console",
            "title": "make",
            "kind": "execute",
            "status": "completed",
            "content": [{"type": "content", "content": {"type": "text", "text": body}}],
        },
    )
    return "end_turn"


async def prompt_term_v2(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """ACP v2 draft: terminal_output_chunk (base64; chunks split a UTF-8 character and an escape
    sequence) and terminal_update snapshots; killed by SIGKILL."""

    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-v2",
            "title": "top",
            "kind": "execute",
            "status": "in_progress",
            "content": [{"type": "terminal", "terminalId": "T-v2"}],
        },
    )
    data = "h\u00e9llo \x1b[31mred\x1b[0m\n".encode()
    for piece in (data[:2], data[2:9], data[9:]):  # splits "é" and "\x1b[31m"
        agent.update(
            sid,
            {
                "sessionUpdate": "terminal_output_chunk",
                "terminalId": "T-v2",
                "data": base64.b64encode(piece).decode(),
            },
        )
    agent.update(
        sid,
        {
            "sessionUpdate": "terminal_update",
            "terminalId": "T-v2",
            "cwd": "/v2",
            "exitStatus": {"exitCode": None, "signal": "SIGKILL"},
        },
    )
    agent.tool_update(sid, "t-v2", status="failed")
    return "end_turn"


PROMPTS = {
    "term-end": prompt_term_end,
    "term-delta": prompt_term_delta,
    "term-v2": prompt_term_v2,
    "term-big": prompt_term_big,
    "term-console": prompt_term_console,
}
