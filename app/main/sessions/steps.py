"""What one transition of the session state machine produces: the envelopes to deliver, a committed
load, permission and question answers to put on the wire, and what was ignored (counted by replay, reported as
diagnostics live). Plain data, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from app.contract.envelopes import Envelope, LoadResult

Token = Any  # the id of a JSON-RPC message: the trace's own (replay) or the chat service's token (live)


class Ignored(NamedTuple):
    """A message that belongs to no session or breaks a rule: never applied."""

    code: str
    message: str
    times: int = 1  # how many such messages this stands for


@dataclass
class Step:
    """What one transition produced, in order."""

    envelopes: list[Envelope] = field(default_factory=list)
    committed: LoadResult | None = None  # a load that just committed
    failure: str | None = None  # why a load answered successfully could still not commit
    refusal: str | None = None  # a permission request answered `cancelled` at once, and why
    answers: list[tuple[Token, str | None]] = field(default_factory=list)  # permissions to answer now
    # questions to answer now: the result, or the sentence a refused question is answered with as an error
    replies: list[tuple[Token, dict[str, Any] | str]] = field(default_factory=list)
    ignored: list[Ignored] = field(default_factory=list)
