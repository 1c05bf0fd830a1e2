"""`credential_streams`: a long reply streamed into the timeline with ClawQt's credentials cut on the
assembled text (app/contract/credentials.py `CredentialStream`) vs the same reply with a stream that
passes every chunk through (what the reducer costs without the cut), side by side in one run. The reply
is prose with a `c` in most chunks and a credential split across chunks every 50 chunks; the `worst`
figure splits every chunk inside a credential's first characters. Goal: <= 2.0."""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Any

from app.contract.envelopes import SessionUpdateEnvelope
from app.renderer.timeline import message_rules
from app.renderer.timeline.reducer import Timeline
from bench.common import Result, interleave, median, sized

CHUNKS = sized(20_000, 500)
GOAL = 2.0
KEY = "bench"
SECRET = "cqt_" + "Q7wZ-k_9" * 5
PROSE = "The cache is checked once per call, so the code stays quick. "


class PassThrough:
    """A stream that cuts nothing: the reducer's own cost."""

    def feed(self, chunk: str) -> tuple[int, str]:
        return 0, chunk


def _chunk(text: str) -> SessionUpdateEnvelope:
    update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
    return SessionUpdateEnvelope(KEY, 1, False, {"sessionId": KEY, "update": update})


def reply(worst: bool) -> list[SessionUpdateEnvelope]:
    """CHUNKS chunks of about 60 characters: prose, and a credential split at its 6th character every
    50 chunks (every chunk when `worst`)."""
    chunks = []
    for index in range(CHUNKS):
        if worst or index % 50 == 25:
            chunks.append(_chunk(f"{PROSE[:40]} {SECRET[:6]}"))
            chunks.append(_chunk(f"{SECRET[6:]} {PROSE[:20]}"))
        else:
            chunks.append(_chunk(PROSE))
    return chunks


@contextmanager
def _stream(kind: Any):
    saved = message_rules.CredentialStream
    message_rules.CredentialStream = kind  # type: ignore[misc]
    try:
        yield
    finally:
        message_rules.CredentialStream = saved  # type: ignore[misc]


def _apply(envelopes: list[SessionUpdateEnvelope], kind: Any) -> float:
    timeline = Timeline(KEY, 1)
    timeline.add_optimistic("m1", "question")
    with _stream(kind):
        started = time.perf_counter()
        for envelope in envelopes:
            timeline.apply(envelope)
        took = time.perf_counter() - started
    text = next(item for item in timeline.items.values() if getattr(item, "role", "") == "assistant")
    leaked = SECRET in "".join(part.text for part in text.parts if hasattr(part, "text"))
    assert leaked == (kind is PassThrough), "the cut did not happen (or the pass-through cut)"
    return took


def run(rounds: int = 7) -> Result:
    typical, worst = reply(worst=False), reply(worst=True)
    stream = message_rules.CredentialStream
    times = interleave(
        rounds,
        {
            "plain": lambda: _apply(typical, PassThrough),
            "cut": lambda: _apply(typical, stream),
            "worst_plain": lambda: _apply(worst, PassThrough),
            "worst_cut": lambda: _apply(worst, stream),
        },
    )
    plain, cut = median(times["plain"]), median(times["cut"])
    worst_plain, worst_cut = median(times["worst_plain"]), median(times["worst_cut"])
    return Result(
        "credential_streams",
        cut / plain,
        GOAL,
        {
            "chunks": len(typical),
            "rounds": rounds,
            "plain_median_s": round(plain, 4),
            "cut_median_s": round(cut, 4),
            "worst_chunks": len(worst),
            "worst_ratio": round(worst_cut / worst_plain, 3),
            "worst_cut_median_s": round(worst_cut, 4),
        },
        extra_line=f"credential_streams ratio={cut / plain:.3f} goal={GOAL} "
        f"(worst: every chunk splits a credential {worst_cut / worst_plain:.3f})",
    )
