"""`history_independence`: 1,000 live updates applied to a timeline that already holds 100,000 items
vs the same updates on an empty one (reducer + grouping + row changes, no I/O). Goal: <= 1.2."""

from __future__ import annotations

import time

from app.contract.envelopes import SessionUpdateEnvelope
from app.renderer.timeline.reducer import Timeline
from bench.common import Result, interleave, median, sized

HISTORY_ITEMS = sized(100_000, 10_000)
UPDATES = sized(1_000, 200)
GOAL = 1.2
KEY = "bench"


def _env(update: dict, historical: bool = False) -> SessionUpdateEnvelope:
    return SessionUpdateEnvelope(KEY, 1, historical, {"sessionId": KEY, "update": update})


def _chunk(kind: str, text: str, message_id: str | None = None) -> dict:
    update = {"sessionUpdate": kind, "content": {"type": "text", "text": text}}
    if message_id:
        update["messageId"] = message_id
    return update


def history(items: int) -> list[SessionUpdateEnvelope]:
    """Turns of 9 items each (question, thought, 3 x (text segment, tool), closing text), replayed."""
    envelopes = []
    for turn in range(-(-items // 9)):
        envelopes.append(_env(_chunk("user_message_chunk", f"question {turn}", f"u{turn}"), True))
        envelopes.append(_env(_chunk("agent_thought_chunk", "hmm", f"a{turn}"), True))
        for part in range(3):
            envelopes.append(_env(_chunk("agent_message_chunk", f"part {part} ", f"a{turn}"), True))
            envelopes.append(
                _env(
                    {
                        "sessionUpdate": "tool_call",
                        "toolCallId": f"t{turn}-{part}",
                        "title": "grep",
                        "status": "in_progress",
                    },
                    True,
                )
            )
            envelopes.append(
                _env(
                    {
                        "sessionUpdate": "tool_call_update",
                        "toolCallId": f"t{turn}-{part}",
                        "status": "completed",
                    },
                    True,
                )
            )
        envelopes.append(_env(_chunk("agent_message_chunk", "the end", f"a{turn}"), True))
    return envelopes


def live_turn() -> list:
    """1,000 updates of one new turn: streamed text, thoughts and tool calls."""
    updates = []
    for i in range(UPDATES):
        if i % 50 == 10:
            updates.append(
                _env(
                    {
                        "sessionUpdate": "tool_call",
                        "toolCallId": f"live-{i}",
                        "title": "ls",
                        "status": "in_progress",
                    }
                )
            )
        elif i % 50 == 11:
            updates.append(
                _env(
                    {
                        "sessionUpdate": "tool_call_update",
                        "toolCallId": f"live-{i - 1}",
                        "status": "completed",
                    }
                )
            )
        elif i % 100 == 20:
            updates.append(_env(_chunk("agent_thought_chunk", "considering ")))
        else:
            updates.append(_env(_chunk("agent_message_chunk", f"word{i} ")))
    return updates


def _timeline(prefill: list) -> Timeline:
    timeline = Timeline(KEY, 1)
    timeline.apply_batch(prefill)
    return timeline


def run(rounds: int = 9) -> Result:
    big_history = history(HISTORY_ITEMS)
    updates = live_turn()
    big = _timeline(big_history)
    assert len(big.order) >= HISTORY_ITEMS, len(big.order)
    items_before = len(big.order)

    def apply(timeline_factory) -> float:
        timeline = timeline_factory()
        timeline.add_optimistic(f"user:{time.perf_counter_ns()}", "new question")
        started = time.perf_counter()
        for envelope in updates:
            timeline.apply(envelope)
        return time.perf_counter() - started

    snapshots: list[Timeline] = []

    def on_big() -> float:
        timeline = _timeline(big_history)  # a fresh copy each round (built outside the timing)
        snapshots.append(timeline)
        return apply(lambda: timeline)

    times = interleave(rounds, {"empty": lambda: apply(lambda: Timeline(KEY, 1)), "history": on_big})
    empty, full = median(times["empty"]), median(times["history"])
    return Result(
        "history_independence",
        full / empty,
        GOAL,
        {
            "history_items": items_before,
            "history_rows": len(big.rows),
            "updates": UPDATES,
            "rounds": rounds,
            "empty_median_s": round(empty, 5),
            "history_median_s": round(full, 5),
        },
    )
