"""Proposals as the timeline tests make them: channels of this run and an earlier one, a payload, the
CLI's tool call, the main side's card envelopes, and a chat with a live turn."""

from __future__ import annotations

from typing import Any

from app.contract.proposals import (
    ProposalAction,
    ProposalChoice,
    ProposalEnvelope,
    canonical_invocation,
    compact_payload,
)
from tests.unit.timeline.helpers import GEN, KEY, Harness, agent, tool

EXE = "/opt/clawqt/bin/clawqt"
THIS_RUN = "a" * 32
EARLIER_RUN = "e" * 32


def channel(nonce: str = "1", instance: str = THIS_RUN) -> str:
    return f"v1.{instance}.{nonce * 32}"[: 3 + 32 + 1 + 32]


PAYLOAD = {
    "schema_version": 1,
    "origin": "terminal_agent",
    "recommended_choice": 2,
    "choices": [
        {
            "choice": 1,
            "title": "List",
            "rationale": "See the files",
            "actions": [{"type": "send", "input": "ls"}],
        },
        {
            "choice": 2,
            "title": "Run the tests",
            "rationale": "They say what broke",
            "actions": [
                {"type": "send", "input": "pytest -q"},
                {"type": "open", "cwd": "/work", "title": "logs"},
            ],
        },
    ],
}
CHOICES = (
    ProposalChoice(1, "List", "See the files", (ProposalAction("send", "ls"),)),
    ProposalChoice(
        2,
        "Run the tests",
        "They say what broke",
        (ProposalAction("send", "pytest -q"), ProposalAction("open", cwd="/work", title="logs")),
    ),
)


def invocation(channel_: str, payload: Any = PAYLOAD) -> str:
    text = payload if isinstance(payload, str) else compact_payload(payload)
    return canonical_invocation(EXE, channel_, text)


def cli_call(tool_id: str, channel_: str, historical: bool = False, payload: Any = PAYLOAD, **fields: Any):
    """The agent's tool call running the proposal CLI, as OpenClaw's exec sends it."""
    raw = {"command": invocation(channel_, payload)}
    return tool(tool_id, title="exec", kind="execute", rawInput=raw, historical=historical, **fields)


def envelope(
    proposal_id: str = "p1",
    state: str = "awaiting",
    *,
    turn: str = "m1",
    generation: int = GEN,
    session: str = KEY,
    reason: str = "",
    channel_: str = "",
) -> ProposalEnvelope:
    return ProposalEnvelope(
        session,
        generation,
        proposal_id,
        turn,
        "terminal_agent",
        CHOICES,
        2,
        state,  # type: ignore[arg-type]
        "term-1",
        "bash — ~/work",
        reason,
        channel_,
    )


def live_turn() -> Harness:
    """The user asked (m1), the agent said something and ran the CLI (still running)."""
    h = Harness()
    h.optimistic("m1", "what now?")
    return h(agent("Let me propose", "a1"), cli_call("cli", channel()))
