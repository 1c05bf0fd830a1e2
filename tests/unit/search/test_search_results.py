"""The search pane's rows from the index's hits: grouped by chat in the order found, the words found
marked and everything else escaped, the filters' words mapped to the index's kinds and times."""

from __future__ import annotations

from datetime import datetime

from app.contract.search import Chat, Hit, Snippet
from app.renderer.present.search_results import filters_of, grouped, needle_of, snippet_html, summary

NOW = datetime(2026, 12, 6, 12, 0)


def _hit(key: str, kind: str, text: str, marks: tuple[tuple[int, int], ...], agent: str = "Demo") -> Hit:
    chat = Chat(key, agent, "/work/project", f"Chat {key}", NOW.timestamp() - 600)
    return Hit(chat, f"m:{key}-{kind}", kind, NOW.timestamp() - 3 * 3600, Snippet(text, marks))


def test_a_snippet_marks_the_words_found_and_escapes_everything_an_agent_wrote():
    snippet = Snippet("<b>quokka</b> & the quokka\nlater", ((3, 9), (20, 26)))
    html = snippet_html(snippet, "#fff0a8")
    assert html == (
        '&lt;b&gt;<span style="background-color:#fff0a8">quokka</span>&lt;/b&gt; &amp; the '
        '<span style="background-color:#fff0a8">quokka</span> later'
    )
    assert needle_of(snippet) == "quokka"
    assert needle_of(Snippet("nothing marked", ())) == ""


def test_hits_are_grouped_by_chat_in_the_order_the_index_found_them():
    hits = [
        _hit("b", "answer", "said quokka", ((5, 11),)),
        _hit("a", "message", "asked quokka", ((6, 12),), agent="Scripted"),
        _hit("b", "output", "quokka in output", ((0, 6),)),
    ]
    groups = grouped(hits, "#000", NOW)
    assert [g["key"] for g in groups] == ["b", "a"]
    assert [h["kind"] for h in groups[0]["hits"]] == ["Answer", "Tool output"]
    assert groups[1]["agent"] == "Scripted" and groups[1]["title"] == "Chat a"
    assert groups[0]["when"] == "10 min" and groups[0]["hits"][0]["when"] == "3 h"
    assert groups[0]["hits"][1]["needle"] == "quokka"


def test_the_filters_words_become_the_indexs_kinds_and_times():
    now = NOW.timestamp()
    every = filters_of("", "", "all", "any", now)
    assert every.kinds == () and every.since == 0
    week = filters_of("Demo", "/w", "tools", "week", now)
    assert week.agent == "Demo" and week.folder == "/w"
    assert week.kinds == ("tool", "output", "terminal") and week.since == now - 7 * 86_400
    assert filters_of("", "", "messages", "day", now).kinds == ("message", "answer", "thought")
    assert filters_of("", "", "unknown", "never", now).kinds == ()


def test_the_summary_counts_matches_and_chats_and_says_when_there_may_be_more():
    assert summary(0, 0, 100) == "No chat says that"
    assert summary(1, 1, 100) == "1 match in 1 chat"
    assert summary(100, 7, 100) == "100+ matches in 7 chats"


def test_a_hit_is_known_in_its_chat_by_its_id_or_by_the_words_around_it():
    from types import SimpleNamespace

    from app.renderer.present.search_results import hit_context, is_indexed_as, says

    snippet = Snippet(
        "…ed the deploy script, then the quokka ran tests and it all passed fine today…", ((32, 38),)
    )
    context = hit_context(snippet)
    assert context == "deploy script, then the quokka ran tests and it all"  # whole words only
    assert hit_context(Snippet("quokka", ((0, 6),))) == "quokka" and hit_context(Snippet("x", ())) == ""
    assert says(["We fixed the deploy script, then the quokka\nran tests and it all passed."], context)
    assert not says(["the quokka ran"], context) and not says(["anything"], "")

    message = SimpleNamespace(message_id="abc")
    tool = SimpleNamespace(tool_call_id="t1", message_id="")
    assert is_indexed_as(message, "m:abc") and is_indexed_as(message, "p:abc")
    assert is_indexed_as(tool, "t:t1") and is_indexed_as(tool, "o:t1")
    assert not is_indexed_as(message, "m:other") and not is_indexed_as(tool, "t:t2")
