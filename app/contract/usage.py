"""What a turn used, as agents report it and the usage ledger keeps it: the tokens of a PromptResponse's
`usage` (ACP, unstable) read the one way both sides read them, and a day of the ledger as the window
charts it."""

from __future__ import annotations

from dataclasses import dataclass

TOKEN_FIELDS = ("totalTokens", "inputTokens", "outputTokens", "thoughtTokens", "cachedReadTokens")


def turn_tokens(usage: object) -> dict[str, int] | None:
    """The token counts of a PromptResponse's `usage` that are whole numbers of at least 0 (anything
    else an agent sends there is left out); None when none is."""
    if not isinstance(usage, dict):
        return None
    counts = {
        name: value
        for name in TOKEN_FIELDS
        if isinstance(value := usage.get(name), int) and not isinstance(value, bool) and value >= 0
    }
    return counts or None


def total_tokens(counts: dict[str, int] | None) -> int:
    """The turn's tokens in all: the agent's total, else what went in and came out."""
    if not counts:
        return 0
    return counts.get("totalTokens", counts.get("inputTokens", 0) + counts.get("outputTokens", 0))


@dataclass(frozen=True)
class UsageDay:
    """One agent's turns on one day (local time), summed."""

    day: str  # YYYY-MM-DD
    agent: str
    turns: int
    tokens: int
    seconds: float
    cost: float  # in `currency`, where the agent reports a cost
    currency: str


@dataclass(frozen=True)
class UsageChat:
    """One chat's turns over some days, summed: what the ledger's per-chat view lists."""

    chat: str  # its key
    title: str  # as the search index knows it ("" when it does not)
    agent: str
    turns: int
    tokens: int
    seconds: float
    cost: float
    currency: str
    context: tuple[int, int] | None = None  # the context used and its size at its last turn, if said
