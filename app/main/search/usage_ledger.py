"""The usage ledger: each turn's tokens (as the agent reports them), its time, its cost and the context
used at its end, per chat,
per agent and per day, in the search database's `usage` table. Unlike the index, these rows are not
made again from the chats (an agent does not say again what a past turn used): a damaged database
moved aside keeps the ledger it held in the file kept aside, and a new one starts empty."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from app.contract.usage import UsageChat, UsageDay, total_tokens

USAGE_SCHEMA = """
CREATE TABLE IF NOT EXISTS usage (
    id INTEGER PRIMARY KEY, chat TEXT NOT NULL, agent TEXT NOT NULL, at REAL NOT NULL, day TEXT NOT NULL,
    tokens INTEGER NOT NULL, input INTEGER, output INTEGER, thought INTEGER, cached INTEGER,
    seconds REAL NOT NULL, cost REAL NOT NULL, currency TEXT NOT NULL, context_used INTEGER,
    context_size INTEGER
);
CREATE INDEX IF NOT EXISTS usage_day ON usage (day);
"""
ADDED_COLUMNS = ("context_used INTEGER", "context_size INTEGER")  # added since the first ledger


def add_columns(db: sqlite3.Connection) -> None:
    """A ledger written before these columns gets them, its rows kept (the ledger is never made again)."""
    have = {row[1] for row in db.execute("PRAGMA table_info(usage)")}
    for column in ADDED_COLUMNS:
        if column.split()[0] not in have:
            db.execute(f"ALTER TABLE usage ADD COLUMN {column}")


@dataclass(frozen=True)
class TurnUsage:
    chat: str
    agent: str
    at: float  # when the turn ended (seconds since the epoch)
    tokens: dict[str, int] | None  # `turn_tokens` of the agent's PromptResponse
    seconds: float
    cost: float = 0.0  # what this turn added to the chat's cost, where the agent reports one
    currency: str = ""
    context: tuple[int, int] | None = None  # the context used and its size at the turn's end, if said

    def row(self) -> tuple[object, ...]:
        counts = self.tokens or {}
        day = datetime.fromtimestamp(self.at).strftime("%Y-%m-%d")  # the user's own day
        used, size = self.context or (None, None)
        return (self.chat, self.agent, self.at, day, total_tokens(self.tokens), counts.get("inputTokens"),
                counts.get("outputTokens"), counts.get("thoughtTokens"), counts.get("cachedReadTokens"),
                self.seconds, self.cost, self.currency, used, size)  # fmt: skip


def add(db: sqlite3.Connection, turns: Sequence[TurnUsage]) -> None:
    db.executemany(
        "INSERT INTO usage (chat, agent, at, day, tokens, input, output, thought, cached, seconds, cost, "
        "currency, context_used, context_size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [turn.row() for turn in turns],
    )


def days(db: sqlite3.Connection, since: str) -> list[UsageDay]:
    """Each agent's turns of each day from `since` (YYYY-MM-DD) on, the oldest day first."""
    rows = db.execute(
        "SELECT day, agent, count(*), sum(tokens), sum(seconds), sum(cost), max(currency) FROM usage "
        "WHERE day >= ? GROUP BY day, agent ORDER BY day, agent",
        (since,),
    ).fetchall()
    return [
        UsageDay(str(d), str(a), int(n), int(t), float(s), float(c), str(cur or ""))
        for d, a, n, t, s, c, cur in rows
    ]


def chats(db: sqlite3.Connection, since: str, limit: int) -> list[UsageChat]:
    """The chats that used the most tokens from `since` (YYYY-MM-DD) on, with their titles as the index
    knows them (a turn's time breaks a tie: an agent that reports no tokens still lists its chats)."""
    rows = db.execute(
        "SELECT u.chat, coalesce(max(c.title), ''), max(u.agent), count(*), sum(u.tokens), sum(u.seconds), "
        "sum(u.cost), max(u.currency) FROM usage u LEFT JOIN chats c ON c.key = u.chat WHERE u.day >= ? "
        "GROUP BY u.chat ORDER BY sum(u.tokens) DESC, sum(u.seconds) DESC LIMIT ?",
        (since, max(0, limit)),
    ).fetchall()
    return [
        UsageChat(
            str(k), str(t), str(a), int(n), int(tok), float(s), float(c), str(cur or ""), _context(db, k)
        )
        for k, t, a, n, tok, s, c, cur in rows
    ]


def _context(db: sqlite3.Connection, chat: str) -> tuple[int, int] | None:
    """The context a chat used at its last turn that said one (used, size)."""
    row = db.execute(
        "SELECT context_used, context_size FROM usage WHERE chat = ? AND context_used IS NOT NULL "
        "AND context_size IS NOT NULL ORDER BY at DESC LIMIT 1",
        (chat,),
    ).fetchone()
    return (int(row[0]), int(row[1])) if row is not None else None
