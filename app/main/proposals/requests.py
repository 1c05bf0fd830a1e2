"""The request line the proposal CLI sends and the lines it is answered: the request's parse (version
and frame limits), line 1 (`Validation`, with the accepted `Proposal` or a refused payload's card) and
line 2 (`final_wire`). `ProposalChannels` (channels.py) decides which answer a request gets.

Pure: no Qt, no I/O."""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, replace
from typing import Any, Protocol

from app.contract.proposals import (
    MAX_FRAME_BYTES,
    MAX_PAYLOAD_BYTES,
    CardState,
    FinalStatus,
    Origin,
    ProposalChoice,
    ProposalEnvelope,
    ValidationStatus,
)
from app.main.proposals.schema import SchemaProblem

REQUEST_VERSION = 1
REQUEST_FIELDS = frozenset({"version", "channel", "payload"})
ID_BYTES = 16  # instance, nonce and proposal id: 128 random bits each, lowercase hex


def payload_digest(payload_json: str) -> bytes:
    """SHA-256 of the payload text as UTF-8 (what the permission allowed and what the CLI sends)."""
    return hashlib.sha256(payload_json.encode("utf-8", "surrogatepass")).digest()


@dataclass(frozen=True)
class Proposal:
    """An accepted proposal: what the card shows and where a `send` goes (captured at prompt time)."""

    proposal_id: str
    channel: str
    session_key: str
    generation: int
    turn_id: str
    origin: Origin
    choices: tuple[ProposalChoice, ...]
    recommended: int | None
    send_target: str | None
    send_target_title: str
    created_at: float
    decision_deadline: float

    def envelope(self, state: CardState, reason: str = "") -> ProposalEnvelope:
        return ProposalEnvelope(
            self.session_key,
            self.generation,
            self.proposal_id,
            self.turn_id,
            self.origin,
            self.choices,
            self.recommended,
            state,
            self.send_target,
            self.send_target_title,
            reason,
            channel=self.channel,
        )


@dataclass(frozen=True)
class Validation:
    """The answer to one request: line 1 on the wire (`wire()`), and the proposal when accepted."""

    status: ValidationStatus
    retryable: bool = False
    reason: str = ""
    proposal: Proposal | None = None
    card: ProposalEnvelope | None = None  # a refused payload's card: what it said, nothing to run
    session_key: str = ""  # the chat of the channel, when the request named one this instance knows

    @property
    def proposal_id(self) -> str | None:
        return self.proposal.proposal_id if self.proposal is not None else None

    def wire(self) -> dict[str, Any]:
        line: dict[str, Any] = {"phase": "validation", "status": self.status}
        if self.proposal is not None:
            line["proposal_id"] = self.proposal.proposal_id
        if self.reason:
            line["reason"] = self.reason
        line["retryable"] = self.retryable
        return line


def final_wire(proposal_id: str, status: FinalStatus) -> dict[str, Any]:
    """Line 2 on the wire."""
    return {"phase": "final", "status": status, "proposal_id": proposal_id}


class PromptFacts(Protocol):
    """What a channel captured when the prompt was sent (a card needs it)."""

    session_key: str
    generation: int
    turn_id: str
    send_target: str | None
    send_target_title: str


class Refusal(Exception):
    """A request refused: the exception carries its line 1."""

    def __init__(self, validation: Validation) -> None:
        self.validation = validation


def refuse(status: ValidationStatus, reason: str, retryable: bool = False) -> Refusal:
    return Refusal(Validation(status, retryable, reason))


def with_refused_card(validation: Validation, channel: PromptFacts, problem: SchemaProblem) -> Validation:
    """A payload refused only for hidden characters gets a `refused` card saying why (not tied to the
    channel, which a corrected payload may still use)."""
    shown = problem.shown
    if shown is None:
        return validation
    card = ProposalEnvelope(
        channel.session_key, channel.generation, secrets.token_hex(ID_BYTES), channel.turn_id,
        shown.origin, shown.choices, shown.recommended, "refused", channel.send_target,
        channel.send_target_title, validation.reason,
    )  # fmt: skip
    return replace(validation, card=card)


def parse_request(request_line: bytes) -> tuple[str, str]:
    """(channel, payload) of a well-formed request line, else the refusal for its version or limits."""
    frame = request_line[:-1] if request_line.endswith(b"\n") else request_line
    frame = frame[:-1] if frame.endswith(b"\r") else frame
    if len(frame) > MAX_FRAME_BYTES:
        raise refuse(
            "invalid_schema",
            f"request is {len(frame)} bytes, more than the {MAX_FRAME_BYTES} bytes a frame may hold; "
            f"the payload may be at most {MAX_PAYLOAD_BYTES} bytes.",
            retryable=True,
        )
    if b"\n" in frame:
        raise refuse("invalid_schema", "request must be a single line of JSON.")
    try:
        request = json.loads(frame.decode("utf-8"), object_pairs_hook=_unique, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, a field twice, nested past the parser's depth
        raise refuse(
            "invalid_schema", "request is not a JSON object of version, channel and payload."
        ) from None
    if not isinstance(request, dict) or set(request) != REQUEST_FIELDS:
        raise refuse("invalid_schema", "request must hold exactly the fields version, channel and payload.")
    if type(request["version"]) is not int or request["version"] != REQUEST_VERSION:
        raise refuse("invalid_schema", f"version must be {REQUEST_VERSION}.")
    channel, payload = request["channel"], request["payload"]
    if not isinstance(channel, str):
        raise refuse("unknown_channel", "channel must be a string.")
    if not isinstance(payload, str):
        raise refuse("invalid_schema", "payload must be the payload's JSON as a string.")
    size = len(payload.encode("utf-8", "surrogatepass"))
    if size > MAX_PAYLOAD_BYTES:
        raise refuse(
            "invalid_schema",
            f"payload is {size} bytes, more than the {MAX_PAYLOAD_BYTES} bytes allowed.",
            retryable=True,
        )
    return channel, payload


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({key for key, _ in pairs}) != len(pairs):
        raise ValueError("a field appears twice")
    return dict(pairs)


def _no_constant(name: str) -> Any:
    raise ValueError(name)
