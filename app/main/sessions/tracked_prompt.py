"""A prompt sent between its turn's two snapshots of the chat's folders (review/turn_changes.py): the
first taken before the prompt goes out, with no chat opened in between (so the prompt still goes to the
chat shown), the second once the turn settled. On success the answer waits for the second (the next
turn's snapshot must come after it); on failure the failure is told at once and the second is taken in
the background (a failed turn's next steps must not wait on a walk of the folders)."""

from __future__ import annotations

from typing import Any

from app.main.sessions.extras import Spawn
from app.main.sessions.file_host import AgentFileHost
from app.main.sessions.io import SessionIO
from app.main.sessions.opening import SessionOpening


async def send_tracked(
    opening: SessionOpening,
    io: SessionIO,
    files: AgentFileHost,
    spawn: Spawn,
    turn: tuple[str, int, str],
    roots: list[str],
    params: dict[str, Any],
) -> dict[str, Any]:
    """`session/prompt` for the turn (session key, generation, message id); its result."""
    key, generation, message_id = turn
    sending = await opening.send_after(
        files.before_turn(key, message_id, roots), io.request("session/prompt", params, key=key)
    )
    settle = files.settle_turn(key, generation, message_id)
    try:
        result, _ = await sending
    except BaseException:
        spawn(settle, "turn-snapshot")
        raise
    await settle
    return result
