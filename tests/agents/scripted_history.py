"""The long histories the scripted agent replays on `session/load` of a session named `big-N` (the
benchmarks' and the window tests' long chats)."""

from __future__ import annotations

from typing import Any


def replay_big(agent: Any, sid: str, turns: int) -> None:
    """`big-N`: N turns of 20 updates each (benchmarks): question, thought, 10 chunks, a tool call
    with 2 updates, 5 more chunks."""
    piece = "lorem ipsum dolor sit amet " * 4
    for turn in range(turns):
        agent.update(
            sid,
            {
                "sessionUpdate": "user_message_chunk",
                "content": {"type": "text", "text": f"question {turn}?"},
            },
        )
        agent.chunk(sid, f"thinking about {turn}", "agent_thought_chunk")
        for i in range(10):
            agent.chunk(sid, f"{i}:{piece}")
        tool_id = f"t{turn}"
        agent.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": tool_id,
                "title": "grep -r x",
                "kind": "search",
                "status": "in_progress",
            },
        )
        agent.update(
            sid,
            {
                "sessionUpdate": "tool_call_update",
                "toolCallId": tool_id,
                "content": [{"type": "content", "content": {"type": "text", "text": "3 hits"}}],
            },
        )
        agent.update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": tool_id, "status": "completed"})
        for i in range(5):
            agent.chunk(sid, f"after {i} ")
