"""The search feed (app/main/search/feed.py): the agents' envelopes folded into one entry per message,
thought, tool title, tool output and terminal output; handed over when a turn settles; a load forgets
the chat first and indexes its replay once a run; credentials cut."""

from __future__ import annotations

from typing import Any

from app.contract.envelopes import (
    PromptSentEnvelope,
    PromptSettledEnvelope,
    ReplayEnvelope,
    SessionUpdateEnvelope,
    TerminalOutputEnvelope,
)
from app.main.search.feed import SearchFeed


class Writer:
    """What the feed hands over, kept in order."""

    def __init__(self) -> None:
        self.put_calls: list[tuple[Any, list[Any]]] = []
        self.forgotten: list[str] = []
        self.used: list[Any] = []

    def put(self, chat, entries) -> None:
        self.put_calls.append((chat, list(entries)))

    def forget(self, keys) -> None:
        self.forgotten.extend(keys)

    def record_usage(self, turns) -> None:
        self.used.extend(turns)

    def texts(self) -> dict[str, tuple[str, str]]:
        """The last text handed over for each item: (kind, text)."""
        return {e.item: (e.kind, e.text) for _chat, entries in self.put_calls for e in entries}


def update(key: str, body: dict[str, Any], historical: bool = False) -> SessionUpdateEnvelope:
    return SessionUpdateEnvelope(key, 1, historical, {"sessionId": key, "update": body})


def chunk(kind: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"sessionUpdate": kind, "content": {"type": "text", "text": text}, **extra}


def feed_of(writer: Writer) -> SearchFeed:
    return SearchFeed(writer, lambda key: f"agent of {key}", lambda key, generation: f"/work/{key}")


def settled(key: str) -> PromptSettledEnvelope:
    return PromptSettledEnvelope(key, 1, "c1", "end_turn", None, 0.1)


def test_a_turn_is_one_entry_per_message_thought_tool_title_and_output():
    writer = Writer()
    feed = feed_of(writer)
    feed.on_envelope(PromptSentEnvelope("k", 1, "c1", ({"type": "text", "text": "refactor the parser"},)))
    feed.on_envelope(update("k", chunk("agent_thought_chunk", "thinking about ")))
    feed.on_envelope(update("k", chunk("agent_thought_chunk", "the lexer")))
    feed.on_envelope(
        update("k", {"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "Read parser.py"})
    )
    feed.on_envelope(
        update(
            "k",
            {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "t1",
                "content": [{"type": "content", "content": {"type": "text", "text": "def parse(): ..."}}],
            },
        )
    )
    feed.on_envelope(update("k", chunk("agent_message_chunk", "Done: ")))
    feed.on_envelope(update("k", chunk("agent_message_chunk", "the parser is split.")))
    assert writer.put_calls == []  # nothing handed over before the turn settles
    feed.on_envelope(settled("k"))
    chat, _entries = writer.put_calls[-1]
    assert (chat.key, chat.agent, chat.folder) == ("k", "agent of k", "/work/k")
    assert writer.texts() == {
        "p:c1": ("message", "refactor the parser"),
        "s1": ("thought", "thinking about the lexer"),
        "t:t1": ("tool", "Read parser.py"),
        "o:t1": ("output", "def parse(): ..."),
        "s2": ("answer", "Done: the parser is split."),
    }


def test_a_message_id_keeps_its_chunks_together_across_other_updates():
    writer = Writer()
    feed = feed_of(writer)
    feed.on_envelope(update("k", chunk("agent_message_chunk", "part one, ", messageId="m7")))
    feed.on_envelope(update("k", {"sessionUpdate": "tool_call", "toolCallId": "t", "title": "ls"}))
    feed.on_envelope(update("k", chunk("agent_message_chunk", "part two", messageId="m7")))
    feed.flush()
    assert writer.texts()["m:m7"] == ("answer", "part one, part two")


def test_a_streaming_answer_handed_over_early_is_indexed_whole_later():
    writer = Writer()
    feed = feed_of(writer)
    feed.on_envelope(update("k", chunk("agent_message_chunk", "first half ")))
    feed.flush()  # the periodic hand-over during a long turn
    feed.on_envelope(update("k", chunk("agent_message_chunk", "second half")))
    feed.on_envelope(settled("k"))
    assert [e.text for _c, entries in writer.put_calls for e in entries] == [
        "first half ",
        "first half second half",
    ]


def test_a_load_forgets_the_chat_first_and_indexes_its_replay_once_a_run():
    writer = Writer()
    feed = feed_of(writer)
    history = ReplayEnvelope(
        "k",
        1,
        (
            update("k", chunk("user_message_chunk", "old question"), historical=True),
            update("k", chunk("agent_message_chunk", "old answer"), historical=True),
        ),
    )
    feed.on_envelope(history)
    feed.flush()
    assert writer.forgotten == ["k"]
    assert writer.texts() == {"s1": ("message", "old question"), "s2": ("answer", "old answer")}
    feed.on_envelope(update("k", chunk("user_message_chunk", "live"), historical=False))  # the load ended
    writer.put_calls.clear()
    feed.on_envelope(history)  # shown again later in the run: not indexed twice
    feed.flush()
    assert writer.forgotten == ["k"] and "s1" not in writer.texts()


def test_a_long_load_is_handed_over_in_pieces_as_it_comes_and_each_message_whole():
    """What the feed holds of a history is a few dozen items at a time (the rest freed while the
    window still makes the rows), and a message whose chunks straddle a hand-over is indexed whole."""
    from app.main.search.feed import LOAD_HANDOVER_ITEMS

    writer = Writer()
    feed = feed_of(writer)
    messages = 3 * LOAD_HANDOVER_ITEMS
    for n in range(messages):
        for part in ("first half ", f"second half {n}"):
            feed.on_envelope(
                update("k", chunk("agent_message_chunk", part, messageId=f"a{n}"), historical=True)
            )
        assert sum(len(entries) for _chat, entries in writer.put_calls) >= n + 1 - (LOAD_HANDOVER_ITEMS + 1)
    assert len(writer.put_calls) >= 2  # before the load ended: in pieces
    assert all(len(entries) <= LOAD_HANDOVER_ITEMS + 1 for _chat, entries in writer.put_calls)
    feed.on_envelope(update("k", chunk("user_message_chunk", "live"), historical=False))
    feed.flush()
    texts = writer.texts()
    assert [texts[f"m:a{n}"] for n in range(messages)] == [
        ("answer", f"first half second half {n}") for n in range(messages)
    ]


def test_credentials_are_cut_from_what_is_indexed():
    writer = Writer()
    feed = feed_of(writer)
    secret = "cqs_" + "A1b2C3d4E5f6G7h8I9j0K1l2"
    feed.on_envelope(update("k", chunk("agent_message_chunk", f"the token is {secret} ok")))
    feed.flush()
    text = writer.texts()["s1"][1]
    assert secret not in text and "cqs_\u2026" in text


def test_the_history_an_opened_chat_comes_with_is_indexed_at_once():
    from app.contract.envelopes import LoadResult

    writer = Writer()
    feed = feed_of(writer)
    history = (update("k", chunk("agent_message_chunk", "from the load"), historical=True),)
    feed.on_opened(LoadResult("k", 1, "/w", history))
    assert writer.forgotten == ["k"] and writer.texts() == {"s1": ("answer", "from the load")}


def test_a_huge_reply_is_kept_only_to_what_the_index_takes():
    from app.main.search.index import MAX_TEXT_CHARS

    writer = Writer()
    feed = feed_of(writer)
    piece = "x" * (1024 * 1024)
    for _ in range(10):  # 10 MB streamed in 1 MB chunks
        feed.on_envelope(update("k", chunk("agent_message_chunk", piece)))
    feed.on_envelope(settled("k"))
    assert len(writer.texts()["s1"][1]) == MAX_TEXT_CHARS
    assert feed._chats["k"].open == {}  # the turn settled: nothing of it kept


def test_a_diff_is_indexed_by_its_path_and_a_tool_output_to_its_limit():
    writer = Writer()
    feed = feed_of(writer)
    diff = {"type": "diff", "path": "/work/app/parser.py", "oldText": "a", "newText": "b"}
    text = {"type": "content", "content": {"type": "text", "text": "log line"}}
    body = {"sessionUpdate": "tool_call", "toolCallId": "t", "title": "Edit", "content": [diff, text]}
    feed.on_envelope(update("k", body))
    feed.flush()
    assert writer.texts()["o:t"] == ("output", "/work/app/parser.py\nlog line")


def test_terminal_output_on_a_card_is_indexed_whole_through_the_turn_without_escapes():
    """A terminal ClawQt runs for the agent (terminal/create, its card naming it after its first output)
    and one an agent reports in `_meta`: each is one entry that grows through the turn (handed over
    early, then again whole), escapes stripped. Output for a terminal no card shows is not indexed."""
    writer = Writer()
    feed = feed_of(writer)
    feed.on_envelope(TerminalOutputEnvelope("k", 1, "term-1", "\x1b[32mcompiling\x1b[0m crate "))
    feed.on_envelope(TerminalOutputEnvelope("k", 1, "nobody", "output no card shows"))
    card = {"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "cargo build",
            "content": [{"type": "terminal", "terminalId": "term-1"}]}  # fmt: skip
    feed.on_envelope(update("k", card))
    feed.flush("k")  # handed over while the command still runs
    assert writer.texts()["x:term-1"] == ("terminal", "compiling crate ")
    feed.on_envelope(TerminalOutputEnvelope("k", 1, "term-1", "finished ok\n", exited=True, exit_code=0))
    meta = {"terminal_info": {"terminal_id": "agent-t"}, "terminal_output": {"terminal_id": "agent-t",
            "data": "\x1b[1mpytest\x1b[0m 12 passed"}}  # fmt: skip
    feed.on_envelope(update("k", {"sessionUpdate": "tool_call_update", "toolCallId": "t9", "_meta": meta}))
    delta = {"terminal_output_delta": {"terminalId": "agent-t", "data": " in 0.3 s"}}
    feed.on_envelope(update("k", {"sessionUpdate": "tool_call_update", "toolCallId": "t9", "_meta": delta}))
    feed.on_envelope(settled("k"))
    texts = writer.texts()
    assert texts["x:term-1"] == ("terminal", "compiling crate finished ok\n")
    assert texts["x:agent-t"] == ("terminal", "pytest 12 passed in 0.3 s")
    assert "x:nobody" not in texts


def test_terminal_output_is_kept_bounded_while_no_card_names_it():
    """Hundreds of megabytes of output for terminals nobody names: the feed keeps at most TURN_CHARS of
    it for the turn, at most TERMINAL_CHARS of one terminal, and nothing once the turn settled."""
    from app.main.search.terminal_feed import TERMINAL_CHARS, TURN_CHARS

    writer = Writer()
    feed = feed_of(writer)
    for n in range(40):
        feed.on_envelope(TerminalOutputEnvelope("k", 1, f"t{n}", "x" * (2 * 1024 * 1024)))
    terminals = feed._chat("k").terminals
    assert sum(o.size for o in terminals.outputs.values()) == TURN_CHARS
    assert max(o.size for o in terminals.outputs.values()) == TERMINAL_CHARS
    feed.on_envelope(settled("k"))
    assert terminals.outputs == {} and writer.put_calls == []


def test_what_clawqt_adds_for_the_agent_alone_is_not_indexed_and_the_first_message_names_the_chat():
    from app.contract.hidden_context import wrap

    writer = Writer()
    feed = feed_of(writer)
    text = "find the flaky test" + wrap("ClawQt terminal access for this chat: secretive plumbing")
    feed.on_envelope(PromptSentEnvelope("k", 1, "c1", ({"type": "text", "text": text},)))
    feed.on_envelope(settled("k"))
    assert writer.texts()["p:c1"] == ("message", "find the flaky test")
    assert writer.put_calls[-1][0].title == "find the flaky test"
    feed.on_envelope(update("k", {"sessionUpdate": "session_info_update", "title": "Flaky test hunt"}))
    feed.on_envelope(update("k", chunk("agent_message_chunk", "found it")))
    feed.on_envelope(settled("k"))
    assert writer.put_calls[-1][0].title == "Flaky test hunt"  # the agent's name for it wins


def test_each_turn_goes_into_the_usage_ledger_with_its_tokens_time_and_the_cost_it_added():
    writer = Writer()
    feed = feed_of(writer)
    cost = {
        "sessionUpdate": "usage_update",
        "used": 900,
        "size": 8000,
        "cost": {"amount": 0.5, "currency": "USD"},
    }
    feed.on_envelope(update("k", cost, historical=True))  # a past turn's cost: not this run's
    feed.on_envelope(update("k", {**cost, "cost": {"amount": 0.75, "currency": "USD"}}))
    usage = {"totalTokens": 1534, "inputTokens": 1200, "outputTokens": 334, "thoughtTokens": "many"}
    feed.on_envelope(PromptSettledEnvelope("k", 1, "c1", "end_turn", None, 2.5, usage=usage))
    feed.on_envelope(PromptSettledEnvelope("k", 1, "c2", "end_turn", None, 1.0))  # no count said
    first, second = writer.used
    assert (first.chat, first.agent, first.seconds, first.cost, first.currency) == (
        "k",
        "agent of k",
        2.5,
        0.25,
        "USD",
    )
    assert first.tokens == {"totalTokens": 1534, "inputTokens": 1200, "outputTokens": 334}
    assert second.tokens is None and second.cost == 0.0  # the cost did not grow since
    assert first.context == second.context == (900, 8000)  # the context as last said
    feed.on_envelope(update("k", {"sessionUpdate": "usage_update", "used": -1, "size": "big"}))  # ignored
    feed.on_envelope(PromptSettledEnvelope("k", 1, "c3", "end_turn", None, 1.0))
    assert writer.used[-1].context == (900, 8000)
