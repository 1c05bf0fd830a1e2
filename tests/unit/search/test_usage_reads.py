"""The usage ledger is read back with every turn handed to the writer so far: the window reads it as a
turn ends (to warn about the day's budget), while the writer thread may still be busy with what came
before, and a read that does not wait misses the turn that just ended."""

from __future__ import annotations

import asyncio
import threading
import time

from app.main.core.problems import LocalProblems
from app.main.search.host_part import ChatSearch
from app.main.search.index import SearchIndex
from app.main.search.usage_ledger import TurnUsage

BUSY_S = 0.3  # how long the writer is held: a read that does not wait for it answers well before


def test_a_turn_handed_to_a_busy_writer_is_in_the_ledger_read_right_after(tmp_path, monkeypatch):
    search = ChatSearch(LocalProblems(), lambda _key: "Demo", lambda _key, _n: None, folder=tmp_path)
    released = threading.Event()
    written = SearchIndex.add_usage

    def held_add_usage(index, turns):  # the writer busy with a long history's entries
        released.wait(10)
        written(index, turns)

    monkeypatch.setattr(SearchIndex, "add_usage", held_add_usage)
    tokens = {"inputTokens": 1000, "outputTokens": 534, "totalTokens": 1534}

    async def scenario():
        search.writer.record_usage([TurnUsage("chat-1", "Demo", time.time(), tokens, 2.0)])
        threading.Timer(BUSY_S, released.set).start()
        return await search.usage(14), await search.usage_chats(14, 5)

    try:
        days, chats = asyncio.run(scenario())
    finally:
        released.set()
        search.writer.close(10)
    assert [(day.agent, day.turns, day.tokens) for day in days] == [("Demo", 1, 1534)]
    assert [(chat.chat, chat.tokens) for chat in chats] == [("chat-1", 1534)]
