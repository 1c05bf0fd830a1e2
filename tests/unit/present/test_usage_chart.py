"""The usage ledger as Settings charts it: a bar for every day of the span (nothing used is a bar of
nothing), in parts by agent, the one that used most first; each agent's totals in words; the daily
budget warned once at 80 % and once past it."""

from __future__ import annotations

from datetime import date

from app.contract.usage import UsageChat, UsageDay
from app.renderer.present.usage_chart import agent_totals, budget_warning, chart_days, chat_totals

TODAY = date(2026, 12, 6)


def test_every_day_of_the_span_has_a_bar_in_parts_by_agent():
    days = [
        UsageDay("2026-12-01", "Codex", 1, 500, 3.0, 0.0, ""),
        UsageDay("2026-12-06", "Claude", 2, 3000, 61.0, 0.25, "USD"),
        UsageDay("2026-12-06", "Codex", 1, 100, 1.0, 0.0, ""),
        UsageDay("2026-11-01", "Codex", 9, 9999, 1.0, 0.0, ""),  # before the span: not charted
    ]
    chart = chart_days(days, TODAY, span=7)
    assert [d["day"] for d in chart] == ["2026-11-30"] + [f"2026-12-0{n}" for n in range(1, 7)]
    assert chart[0]["label"] == "Mon 30" and chart[-1]["label"] == "Sun 6"
    assert [d["tokens"] for d in chart] == [0, 500, 0, 0, 0, 0, 3100]
    assert [(p["agent"], p["tokens"]) for p in chart[-1]["parts"]] == [("Codex", 100), ("Claude", 3000)]


def test_each_agents_totals_in_words_the_one_that_used_most_first():
    days = [
        UsageDay("2026-12-05", "Claude", 1, 1000, 30.0, 0.1, "USD"),
        UsageDay("2026-12-06", "Claude", 2, 3000, 61.0, 0.25, "USD"),
        UsageDay("2026-12-06", "Codex", 1, 100, 1.0, 0.0, ""),
    ]
    claude, codex = agent_totals(days)
    assert (claude["agent"], claude["words"], claude["time"], claude["costWords"]) == (
        "Claude",
        "4k tokens in 3 turns",
        "2 min",
        "0.35 USD",
    )
    assert (codex["words"], codex["time"], codex["costWords"], codex["index"]) == (
        "100 tokens in 1 turn",
        "1 s",
        "",
        1,
    )


def test_an_agent_that_reports_no_tokens_has_its_turns_counted_not_zero_tokens():
    (silent,) = agent_totals([UsageDay("2026-12-06", "Gemini", 4, 0, 20.0, 0.0, "")])
    assert silent["words"] == "4 turns, tokens not reported"


def test_the_chats_that_used_most_are_worded_with_their_title_agent_and_cost():
    named, untitled = chat_totals(
        [
            UsageChat("k1", "Fix the parser", "Claude", 3, 4200, 61.0, 0.35, "USD", (62_000, 200_000)),
            UsageChat("k2", "", "Gemini", 1, 0, 5.0, 0.0, ""),
        ]
    )
    assert (named["key"], named["title"], named["agent"]) == ("k1", "Fix the parser", "Claude")
    assert named["words"] == "4.2k tokens in 3 turns \u00b7 0.35 USD \u00b7 context 62k of 200k (31 %)"
    assert (untitled["title"], untitled["words"]) == ("Untitled chat", "1 turn, tokens not reported")


def test_the_budget_is_warned_once_at_eighty_percent_and_once_past_it():
    assert budget_warning(9_000, 0, set()) is None  # no budget
    assert budget_warning(7_000, 10_000, set()) is None
    level, words = budget_warning(8_200, 10_000, set())
    assert level == 0.8 and words == "Today's turns used 8,200 tokens: 82% of your daily budget of 10,000."
    assert budget_warning(8_500, 10_000, {0.8}) is None
    level, words = budget_warning(11_200, 10_000, {0.8})
    assert level == 1.0 and "past your daily budget of 10,000 (112%)" in words
    assert budget_warning(12_000, 10_000, {0.8, 1.0}) is None
