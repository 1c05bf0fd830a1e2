"""The search index (app/main/search/index.py) on real SQLite files: what is said in any chat is found,
with its chat, a snippet and the words marked; an entry indexed again is replaced; the filters; what the
user types never makes a query error; a 10 MB message; a damaged or foreign file made again; a read-only
folder kept in memory; two processes writing to one data folder; the size bound."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
import time

import pytest

from app.main.core.problems import LocalProblems
from app.main.search.index import FILENAME, MAX_TEXT_CHARS, Chat, Entry, Filters, SearchIndex
from tests.paths import REPO

NOW = 1_790_000_000.0


def chat(key: str, agent: str = "Claude", folder: str = "/work/a", updated: float = NOW) -> Chat:
    return Chat(key, agent, folder, f"Chat {key}", updated)


def entry(item: str, text: str, kind: str = "answer", at: float = NOW) -> Entry:
    return Entry(item, kind, text, at)


def test_a_word_said_in_any_chat_is_found_with_its_chat_and_marked(tmp_path):
    index = SearchIndex(tmp_path)
    index.index(
        [
            (chat("one", "Claude"), [entry("m1", "Let us refactor the parser first.", "message")]),
            (chat("two", "Codex"), [entry("a1", "The Parser's tests pass; the lexer is next.")]),
            (chat("three"), [entry("a2", "Nothing to see here.")]),
        ]
    )
    hits = index.search("parser")
    assert {hit.chat.key for hit in hits} == {"one", "two"}
    codex = next(hit for hit in hits if hit.chat.key == "two")
    assert (codex.chat.agent, codex.item, codex.kind) == ("Codex", "a1", "answer")
    assert [codex.snippet.text[a:b] for a, b in codex.snippet.marks] == ["Parser"]
    assert index.search("pars")[0].snippet.marks  # the word being typed matches as a prefix
    assert index.search("parsers") == []


def test_an_item_indexed_again_is_replaced_and_its_old_words_are_gone(tmp_path):
    index = SearchIndex(tmp_path)
    index.index([(chat("k"), [entry("a", "streaming half a sent")])])
    index.index([(chat("k"), [entry("a", "streaming half a sentence, now whole")])])
    assert [hit.item for hit in index.search("sentence")] == ["a"]
    assert index.search("sent ") == []  # the old text's last word
    assert index.counts() == (1, 1)


def test_filters_by_agent_folder_kind_and_date(tmp_path):
    index = SearchIndex(tmp_path)
    index.index(
        [
            (chat("c", "Claude", "/a"), [entry("1", "deploy now", "message", NOW - 86_400)]),
            (chat("x", "Codex", "/b"), [entry("2", "deploy later", "output", NOW)]),
        ]
    )
    assert [h.item for h in index.search("deploy", Filters(agent="Codex"))] == ["2"]
    assert [h.item for h in index.search("deploy", Filters(folder="/a"))] == ["1"]
    assert [h.item for h in index.search("deploy", Filters(kinds=("message",)))] == ["1"]
    assert [h.item for h in index.search("deploy", Filters(since=NOW - 3600))] == ["2"]
    assert [h.item for h in index.search("deploy", Filters(until=NOW - 3600))] == ["1"]
    facets = index.facets()  # what the pane's filters offer
    assert facets.agents == ("Claude", "Codex") and facets.folders == ("/a", "/b")


@pytest.mark.parametrize(
    "typed",
    ['"', "AND", "OR NOT", "NEAR(a b)", "a*", "col:val", "^start", "(x", "-x", '"a" "', "*", "'; DROP", "\\"],
)
def test_what_the_user_types_never_makes_a_query_error(tmp_path, typed):
    index = SearchIndex(tmp_path)
    index.index([(chat("k"), [entry("1", "AND OR NOT NEAR a b x col val start DROP")])])
    hits = index.search(typed)  # no exception, whatever the characters
    words = [w for w in typed.replace('"', " ").split() if any(c.isalnum() for c in w)]
    assert bool(hits) == bool(words)


def test_a_phrase_in_quotes_matches_only_in_that_order(tmp_path):
    index = SearchIndex(tmp_path)
    index.index([(chat("k"), [entry("1", "the red house"), entry("2", "the house is red")])])
    assert [h.item for h in index.search('"red house"')] == ["1"]
    assert {h.item for h in index.search("red house")} == {"1", "2"}


def test_a_10_mb_message_is_indexed_to_its_limit_and_found_quickly(tmp_path):
    index = SearchIndex(tmp_path)
    text = "zebra " + "lorem ipsum dolor " * (10 * 1024 * 1024 // 18) + " unicorn"
    index.index([(chat("k"), [entry("big", text, "message")])])
    started = time.monotonic()
    hits = index.search("zebra")
    assert [h.item for h in hits] == ["big"] and len(hits[0].snippet.text) < 300
    assert time.monotonic() - started < 5  # the snippet reads the start of the text, not all of it
    assert index.search("unicorn") == []  # past MAX_TEXT_CHARS: not indexed
    assert len(text) > MAX_TEXT_CHARS


def test_a_damaged_file_is_kept_aside_and_the_index_made_again(tmp_path):
    (tmp_path / FILENAME).write_bytes(b"this is not a database" * 100)
    problems = LocalProblems()
    index = SearchIndex(tmp_path, problems)
    index.index([(chat("k"), [entry("1", "found again")])])
    assert [h.item for h in index.search("found")] == ["1"]
    assert not index.in_memory
    assert list(tmp_path.glob(f"{FILENAME}.corrupt-*"))
    assert "made again from your chats" in problems.reported()[0].text


def test_a_file_of_another_schema_version_is_made_again(tmp_path):
    SearchIndex(tmp_path).close()
    db = sqlite3.connect(tmp_path / FILENAME)
    db.execute("PRAGMA user_version = 99")
    db.close()
    problems = LocalProblems()
    index = SearchIndex(tmp_path, problems)
    index.index([(chat("k"), [entry("1", "hello")])])
    assert index.search("hello") and problems.reported()


@contextlib.contextmanager
def read_only(folder):
    """`folder` unwritable, also for root (who ignores permissions but not the immutable flag)."""
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            yield
        finally:
            folder.chmod(0o700)
        return
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("running as root where `chattr +i` is not available: no folder is read-only to root")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_read_only_data_folder_keeps_the_index_in_memory_and_says_so(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    with read_only(folder):
        problems = LocalProblems()
        index = SearchIndex(folder, problems)
        index.index([(chat("k"), [entry("1", "kept in memory")])])
        assert index.in_memory and [h.item for h in index.search("memory")] == ["1"]
        assert "until you quit" in problems.reported()[0].text
        assert not (folder / FILENAME).exists()


def test_an_index_in_a_folder_made_read_only_later_moves_into_memory(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    index = SearchIndex(folder)
    index.index([(chat("k"), [entry("1", "first")])])
    index.close()
    with read_only(folder):
        problems = LocalProblems()
        again = SearchIndex(folder, problems)
        again.index([(chat("k"), [entry("2", "second")])])
        assert again.in_memory and [h.item for h in again.search("second")] == ["2"]
        assert problems.reported()


def test_a_database_that_stops_taking_writes_moves_into_memory(tmp_path):
    index = SearchIndex(tmp_path)
    index.index([(chat("k"), [entry("1", "first")])])
    index._db.execute("PRAGMA query_only = ON")  # what a read-only remount looks like to SQLite
    index.index([(chat("k"), [entry("2", "second")])])
    assert index.in_memory and [h.item for h in index.search("second")] == ["2"]


WRITER = r"""
import sys
from pathlib import Path
from app.main.search.index import Chat, Entry, SearchIndex
index = SearchIndex(Path(sys.argv[1]))
name = sys.argv[2]
for n in range(200):
    index.index([(Chat(name, "a", "/f", name, n), [Entry(f"{name}-{n}", "answer", f"{name} said {n}", n)])])
index.close()
"""


def test_two_processes_writing_to_one_data_folder_lose_nothing(tmp_path):
    SearchIndex(tmp_path).close()
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), name], cwd=REPO, stderr=subprocess.PIPE
        )
        for name in ("alpha", "beta")
    ]
    for writer in writers:
        assert writer.wait(120) == 0, writer.stderr.read().decode() if writer.stderr else ""
    index = SearchIndex(tmp_path)
    assert index.counts() == (2, 400)
    assert len(index.search("said", limit=1000)) == 400


def test_past_its_bound_the_chats_changed_longest_ago_are_forgotten(tmp_path):
    index = SearchIndex(tmp_path, max_bytes=400_000)
    for n in range(12):
        words = " ".join(f"w{n}x{i}" for i in range(3000))  # each chat's own: the index grows with each
        index.index([(chat(f"c{n}", updated=NOW + n), [entry("1", f"chat{n} {words}")])])
    assert index.used_bytes() <= 400_000
    assert index.search("chat11") and not index.search("chat0")
    assert index.counts()[0] >= 6  # only what the bound needs is forgotten


def test_a_chat_forgotten_is_not_found(tmp_path):
    index = SearchIndex(tmp_path)
    index.index([(chat("gone"), [entry("1", "secret plan")]), (chat("kept"), [entry("1", "secret sauce")])])
    index.forget(["gone"])
    assert [h.chat.key for h in index.search("secret")] == ["kept"]


def test_the_newest_hits_come_first_and_the_limit_is_kept(tmp_path):
    index = SearchIndex(tmp_path)
    for n in range(30):
        index.index([(chat(f"c{n}"), [entry("1", f"common word number{n}")])])
    hits = index.search("common", limit=5)
    assert [h.chat.key for h in hits] == ["c29", "c28", "c27", "c26", "c25"]


def test_a_snippet_shows_where_the_words_are_said_together_not_the_first_time_one_is():
    from app.main.search.snippets import snippet

    text = "deploy " + "filler words here " * 40 + "then we deploy the parser to staging " + "tail " * 50
    shown = snippet(text, ("deploy", "parser"))
    assert "deploy the parser" in shown.text and shown.text.startswith("…")
    marked = [shown.text[a:b] for a, b in shown.marks]
    assert marked == ["deploy", "parser"]
    assert snippet("parser only once " + "x " * 300, ("parser", "missing")).text.startswith("parser")


def test_the_usage_ledger_sums_each_agents_turns_by_day_and_keeps_them_across_a_reopen(tmp_path):
    from datetime import datetime

    from app.main.search.usage_ledger import TurnUsage

    index = SearchIndex(tmp_path)
    today = datetime.now().replace(hour=12).timestamp()
    index.add_usage(
        [
            TurnUsage("a", "Claude", today - 86_400, {"totalTokens": 1000}, 3.0, 0.1, "USD"),
            TurnUsage("a", "Claude", today, {"inputTokens": 200, "outputTokens": 50}, 2.0, 0.2, "USD"),
            TurnUsage("b", "Claude", today, {"totalTokens": 100}, 1.0),
            TurnUsage("c", "Codex", today, None, 4.0),
        ]
    )
    index.close()
    days = SearchIndex(tmp_path).usage_days("2000-01-01")
    yesterday, *now = days
    assert (yesterday.agent, yesterday.turns, yesterday.tokens) == ("Claude", 1, 1000)
    assert [(d.agent, d.turns, d.tokens, d.seconds) for d in now] == [
        ("Claude", 2, 350, 3.0),
        ("Codex", 1, 0, 4.0),
    ]
    assert round(now[0].cost, 2) == 0.2 and now[0].currency == "USD"
    assert SearchIndex(tmp_path).usage_days(now[0].day) == now  # from a day on


def test_the_chats_that_used_most_are_listed_with_their_titles_the_most_first(tmp_path):
    from datetime import datetime

    from app.main.search.usage_ledger import TurnUsage

    index = SearchIndex(tmp_path)
    index.index([(chat("a"), [entry("m1", "hello")]), (chat("b"), [entry("m2", "hi")])])
    today = datetime.now().replace(hour=12).timestamp()
    index.add_usage(
        [
            TurnUsage("a", "Claude", today, {"totalTokens": 100}, 3.0),
            TurnUsage("b", "Claude", today - 60, {"totalTokens": 500}, 1.0, 0.5, "USD", (40_000, 200_000)),
            TurnUsage("b", "Claude", today, {"totalTokens": 500}, 1.0, 0.25, "USD", (62_000, 200_000)),
            TurnUsage("c", "Gemini", today, None, 9.0),  # no tokens reported, not in the index
            TurnUsage("a", "Claude", today - 30 * 86_400, {"totalTokens": 9999}, 1.0),  # before the span
        ]
    )
    since = datetime.fromtimestamp(today - 86_400).strftime("%Y-%m-%d")
    listed = index.usage_chats(since, 5)
    assert [(c.chat, c.title, c.turns, c.tokens) for c in listed] == [
        ("b", "Chat b", 2, 1000),
        ("a", "Chat a", 1, 100),
        ("c", "", 1, 0),  # listed by its time: its agent reports no tokens
    ]
    assert listed[0].cost == 0.75 and listed[0].currency == "USD"
    assert listed[0].context == (62_000, 200_000) and listed[1].context is None  # at its last turn
    assert [c.chat for c in index.usage_chats(since, 1)] == ["b"]


def test_a_ledger_written_before_the_context_columns_gets_them_and_keeps_its_rows(tmp_path):
    from app.main.search.usage_ledger import TurnUsage

    index = SearchIndex(tmp_path)
    index.add_usage([TurnUsage("a", "Claude", NOW, {"totalTokens": 100}, 3.0)])
    index.close()
    with contextlib.closing(sqlite3.connect(tmp_path / FILENAME)) as db:  # the ledger as it first was
        db.execute("ALTER TABLE usage DROP COLUMN context_used")
        db.execute("ALTER TABLE usage DROP COLUMN context_size")
        db.commit()
    reopened = SearchIndex(tmp_path)
    assert not reopened.in_memory
    reopened.add_usage([TurnUsage("a", "Claude", NOW + 1, {"totalTokens": 50}, 1.0, context=(10, 100))])
    (chat,) = reopened.usage_chats("2000-01-01", 5)
    assert (chat.turns, chat.tokens, chat.context) == (2, 150, (10, 100))
