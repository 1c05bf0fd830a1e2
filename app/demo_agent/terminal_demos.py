"""Terminal variants of the demo agent, so every way a terminal card can be fed is one prompt away:

- "deltas": streamed `_meta.terminal_output_delta` chunks (codex-acp style) with a `\\r` progress bar,
  ending with exit code 2 (sent with or without the client's capability, as codex-acp does);
- "v2": the ACP v2 draft `terminal_output_chunk` (base64; a chunk splits a UTF-8 character and an escape
  sequence) and `terminal_update` with a signal exit;
- "in my terminal": the client runs the command itself (`terminal/create` with an output byte limit),
  the tool card embeds it, then `terminal/wait_for_exit`, `terminal/output` and `terminal/release`.
"""

from __future__ import annotations

import base64
import json

from acp.schema import TerminalToolCallContent, TextContentBlock, ToolCallProgress, ToolCallStart

from app.demo_agent.turn import StopReason, Turn


async def _raw_update(turn: Turn, update: dict) -> None:
    """Send an update the SDK's v1 schema cannot express (v2 draft kinds), recorded for replay too."""
    turn.check()
    await turn._conn._conn.send_notification(  # type: ignore[attr-defined]
        "session/update", {"sessionId": turn.session.session_id, "update": update}
    )


async def run_deltas(turn: Turn) -> StopReason:
    tool_id = turn.tool_id("make")
    terminal_id = f"demo-deltas-{turn.number}"
    await turn.send(
        ToolCallStart(
            session_update="tool_call",
            tool_call_id=tool_id,
            title="make -j4",
            kind="execute",
            status="in_progress",
            content=[TerminalToolCallContent(type="terminal", terminal_id=terminal_id)],
            field_meta={"terminal_info": {"terminal_id": terminal_id, "cwd": turn.session.cwd}},
        )
    )
    for pct in range(0, 101, 10):
        await turn.pause()
        bar = "#" * (pct // 5)
        await turn.send(
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id=tool_id,
                field_meta={
                    "terminal_output_delta": {
                        "terminal_id": terminal_id,
                        "data": f"\r\x1b[36mbuilding\x1b[0m [{bar:<20}] {pct:3d}%",
                    }
                },
            )
        )
    await turn.send(
        ToolCallProgress(
            session_update="tool_call_update",
            tool_call_id=tool_id,
            status="failed",
            field_meta={
                "terminal_output_delta": {
                    "terminal_id": terminal_id,
                    "data": "\n\x1b[31merror:\x1b[0m no rule to make target 'docs'\n",
                },
                "terminal_exit": {"terminal_id": terminal_id, "exit_code": 2, "signal": None},
            },
        )
    )
    await turn.stream("The build failed with exit code 2 (on purpose).", part="deltas-summary")
    return "end_turn"


async def run_v2(turn: Turn) -> StopReason:
    tool_id = turn.tool_id("top")
    terminal_id = f"demo-v2-{turn.number}"
    await turn.send(
        ToolCallStart(
            session_update="tool_call",
            tool_call_id=tool_id,
            title="top -b -n 1",
            kind="execute",
            status="in_progress",
            content=[TerminalToolCallContent(type="terminal", terminal_id=terminal_id)],
        )
    )
    data = "h\u00e9llo from \x1b[32mACP v2\x1b[0m\n".encode()
    for piece in (data[:2], data[2:15], data[15:]):  # splits "é" and an escape sequence
        await turn.pause()
        await _raw_update(
            turn,
            {
                "sessionUpdate": "terminal_output_chunk",
                "terminalId": terminal_id,
                "data": base64.b64encode(piece).decode(),
            },
        )
    await _raw_update(
        turn,
        {
            "sessionUpdate": "terminal_update",
            "terminalId": terminal_id,
            "cwd": turn.session.cwd,
            "exitStatus": {"exitCode": None, "signal": "SIGTERM"},
        },
    )
    await turn.send(
        ToolCallProgress(session_update="tool_call_update", tool_call_id=tool_id, status="failed")
    )
    return "end_turn"


async def run_client_terminal(turn: Turn) -> StopReason:
    conn = turn._conn
    session_id = turn.session.session_id
    created = await conn.create_terminal(
        session_id=session_id,
        command="bash",
        args=["-c", "for i in $(seq 1 60); do printf '\\e[33mline %02d\\e[0m \\u00e9t\\u00e9\\n' $i; done"],
        cwd=turn.session.cwd,
        output_byte_limit=800,
    )
    terminal_id = created.terminal_id
    tool_id = turn.tool_id("client-terminal")
    await turn.send(
        ToolCallStart(
            session_update="tool_call",
            tool_call_id=tool_id,
            title="bash -c 'print 60 lines'",
            kind="execute",
            status="in_progress",
            content=[TerminalToolCallContent(type="terminal", terminal_id=terminal_id)],
        )
    )
    status = await conn.wait_for_terminal_exit(session_id=session_id, terminal_id=terminal_id)
    output = await conn.terminal_output(session_id=session_id, terminal_id=terminal_id)
    await conn.release_terminal(session_id=session_id, terminal_id=terminal_id)
    await turn.send(
        ToolCallProgress(session_update="tool_call_update", tool_call_id=tool_id, status="completed")
    )
    summary = {
        "exitCode": status.exit_code,
        "signal": status.signal,
        "truncated": output.truncated,
        "bytes": len(output.output.encode()),
    }
    await turn.send(_text_chunk(turn, f"Your terminal ran it: `{json.dumps(summary)}`"))
    return "end_turn"


def _text_chunk(turn: Turn, text: str):
    from acp.schema import AgentMessageChunk

    return AgentMessageChunk(
        session_update="agent_message_chunk",
        content=TextContentBlock(type="text", text=text),
        message_id=turn.message_id("terminal-summary"),
    )
