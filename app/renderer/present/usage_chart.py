"""The usage ledger as Settings charts it: one bar a day over the last days (a day with no turn is a
bar of nothing, not a gap), each bar in parts by agent; each agent's totals; and the daily budget's
warning. Pure, so a test holds the day."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from app.contract.usage import UsageChat, UsageDay
from app.renderer.present.session_header import compact_count
from app.renderer.present.session_times import WEEKDAYS

SPAN_DAYS = 14  # the days charted, today the last
WARN_AT = (0.8, 1.0)  # of the daily budget: warned once a day at each


def chart_days(days: list[UsageDay], today: date, span: int = SPAN_DAYS) -> list[dict[str, Any]]:
    """One entry per day from `span` days back to today: its label, its tokens, its parts by agent (in
    the order of `agents_of`)."""
    agents = agents_of(days)
    by_day: dict[str, dict[str, int]] = {}
    for entry in days:
        by_day.setdefault(entry.day, {})[entry.agent] = entry.tokens
    chart: list[dict[str, Any]] = []
    for back in range(span - 1, -1, -1):
        day = today - timedelta(days=back)
        used = by_day.get(day.isoformat(), {})
        parts = [
            {"agent": agent, "tokens": used.get(agent, 0), "index": index}
            for index, agent in enumerate(agents)
        ]
        label = f"{WEEKDAYS[day.weekday()]} {day.day}"
        chart.append({"day": day.isoformat(), "label": label, "tokens": sum(used.values()), "parts": parts})
    return chart


def agents_of(days: list[UsageDay]) -> list[str]:
    """The agents of the ledger, the one that used most first."""
    used: dict[str, int] = {}
    for entry in days:
        used[entry.agent] = used.get(entry.agent, 0) + entry.tokens
    return sorted(used, key=lambda agent: (-used[agent], agent))


def agent_totals(days: list[UsageDay]) -> list[dict[str, Any]]:
    """Each agent's turns, tokens, time and cost over the days given, in words for the table."""
    totals: dict[str, dict[str, Any]] = {}
    for entry in days:
        total = totals.setdefault(entry.agent, {"agent": entry.agent, "turns": 0, "tokens": 0, "seconds": 0.0,
                                                "cost": 0.0, "currency": entry.currency})  # fmt: skip
        total["turns"] += entry.turns
        total["tokens"] += entry.tokens
        total["seconds"] += entry.seconds
        total["cost"] += entry.cost
        total["currency"] = total["currency"] or entry.currency
    rows = []
    for index, agent in enumerate(agents_of(days)):
        total = totals[agent]
        cost = _cost_words(total["cost"], total["currency"])
        words = _used_words(total["tokens"], total["turns"])
        seconds = total["seconds"]
        time_words = f"{round(seconds / 60)} min" if seconds >= 60 else f"{round(seconds)} s"
        rows.append({**total, "index": index, "words": words, "costWords": cost, "time": time_words})
    return rows


def _used_words(tokens: int, turns: int) -> str:
    """What turns used, in words: an agent that reports no tokens did not use none (its turns are
    counted, its tokens unknown)."""
    counted = f"{turns} turn{'s' * (turns != 1)}"
    return f"{compact_count(tokens)} tokens in {counted}" if tokens else f"{counted}, tokens not reported"


def _cost_words(cost: float, currency: str) -> str:
    return f"{cost:.2f} {currency}".strip() if cost else ""


TOP_CHATS = 5  # the chats Settings lists as those that used most


def chat_totals(chats: list[UsageChat]) -> list[dict[str, Any]]:
    """The chats that used most, in words for the list: their title (or that it has none), agent, what
    their turns used and how full their context was at the last."""
    rows = []
    for chat in chats:
        words = _used_words(chat.tokens, chat.turns)
        cost = _cost_words(chat.cost, chat.currency)
        if cost:
            words += f" \u00b7 {cost}"
        if chat.context is not None:  # how full its context was at its last turn
            used, size = chat.context
            share = round(100 * used / size)
            words += f" \u00b7 context {compact_count(used)} of {compact_count(size)} ({share} %)"
        rows.append(
            {"key": chat.chat, "title": chat.title or "Untitled chat", "agent": chat.agent, "words": words}
        )
    return rows


def budget_warning(used: int, budget: int, warned: set[float]) -> tuple[float, str] | None:
    """The warning due now for a day that used `used` tokens of `budget` (0: none), past the levels
    `warned` already: (its level, its words), or None."""
    if budget <= 0:
        return None
    due = [level for level in WARN_AT if used >= level * budget and level not in warned]
    if not due:
        return None
    level = max(due)
    share = round(100 * used / budget)
    if level >= 1.0:
        return level, f"Today's turns used {used:,} tokens, past your daily budget of {budget:,} ({share}%)."
    return level, f"Today's turns used {used:,} tokens: {share}% of your daily budget of {budget:,}."
