"""The slow stream: long enough to exercise cancel, stop buttons and the UI under a steady trickle."""

from __future__ import annotations

from acp.schema import AgentMessageChunk, TextContentBlock

from app.demo_agent.turn import StopReason, Turn

SLOW_CHUNKS = 400
SLOW_INTERVAL = 0.05  # seconds; deliberately not scaled by CLAWQT_DEMO_DELAY_MS


def slow_chunk(index: int) -> str:
    """Chunk `index` (0-based): numbered words, a line break every 20 chunks."""
    end = "\n" if (index + 1) % 20 == 0 else " "
    return f"slow-{index + 1}/{SLOW_CHUNKS}{end}"


async def run_slow(turn: Turn) -> StopReason:
    """400 short chunks ~50 ms apart (~20 s); a cancel stops it between chunks, keeping what was sent."""
    message_id = turn.message_id("answer")
    for index in range(SLOW_CHUNKS):
        block = TextContentBlock(type="text", text=slow_chunk(index))
        await turn.send(
            AgentMessageChunk(session_update="agent_message_chunk", content=block, message_id=message_id)
        )
        await turn.pause(SLOW_INTERVAL)
    return "end_turn"
