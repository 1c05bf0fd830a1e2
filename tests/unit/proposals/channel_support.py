"""Proposal channels under test: a moved clock, payloads, request lines and channels whose finals are
heard (the `f` fixture in conftest.py makes one per test)."""

from __future__ import annotations

import json
from typing import Any

from app.contract.proposals import (
    FinalStatus,
    ValidationStatus,
    compact_payload,
)
from app.main.proposals.channels import (
    ProposalChannels,
)
from app.main.proposals.requests import Proposal

SEND = {"type": "send", "input": "make test"}
OPEN_AND_SEND = {"type": "open_and_send", "target": "tab", "input": "make test"}


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def payload_text(*actions: dict[str, Any], title: str = "Run the tests") -> str:
    return compact_payload(
        {
            "schema_version": 1,
            "origin": "terminal_agent",
            "recommended_choice": 1,
            "choices": [{"choice": 1, "title": title, "actions": list(actions) or [SEND]}],
        }
    )


VALID = payload_text()
INVALID = compact_payload({"schema_version": 1, "origin": "terminal_agent", "choices": [], "pane": "%3"})


def request(channel: str, payload: str = VALID, **extra: Any) -> bytes:
    return json.dumps({"version": 1, "channel": channel, "payload": payload, **extra}).encode() + b"\n"


class Fixture:
    """Channels with a moved clock, the finals heard, and a chat whose prompt is current unless told."""

    def __init__(self) -> None:
        self.clock = Clock()
        self.stale: set[tuple[str, int, str]] = set()
        self.channels = ProposalChannels(self.clock, lambda *turn: turn not in self.stale)
        self.finals: list[tuple[str, FinalStatus]] = []
        self.channels.subscribe_final(
            lambda proposal, final: self.finals.append((proposal.proposal_id, final))
        )

    def issue(self, key: str = "chat-a", turn: str = "t1", target: str | None = "term-1") -> str:
        return self.channels.issue(key, 1, turn, target, "bash" if target else "")

    def armed(self, key: str = "chat-a", payload: str = VALID, target: str | None = "term-1") -> str:
        channel = self.issue(key, target=target)
        assert self.channels.arm(channel, payload, key)
        return channel

    def accept(self, key: str = "chat-a", payload: str = VALID) -> Proposal:
        channel = self.armed(key, payload)
        result = self.channels.validate(request(channel, payload))
        assert result.status == "accepted", result
        assert result.proposal is not None
        return result.proposal

    def status(self, line: bytes) -> tuple[ValidationStatus, bool]:
        result = self.channels.validate(line)
        return result.status, result.retryable
