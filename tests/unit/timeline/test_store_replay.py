"""A long load's replay reaches the renderer ahead of its result (ReplayEnvelopes): the store reduces
it into the timeline that load will show, never shows it before the result commits, and ends with the
same timeline as a replay handed over whole."""

from __future__ import annotations

from typing import Any

from app.contract.envelopes import LoadResult, ReplayEnvelope
from app.renderer.timeline.store import TimelineStore
from tests.unit.timeline.helpers import GEN, KEY, agent, tool, user


def _history(turns: int, session: str = KEY, generation: int = GEN) -> list[Any]:
    envelopes = []
    for n in range(turns):
        envelopes.append(
            user(f"question {n}", f"u{n}", historical=True, session=session, generation=generation)
        )
        envelopes.append(
            agent(f"answer {n}", f"a{n}", historical=True, session=session, generation=generation)
        )
        if session == KEY and generation == GEN:
            envelopes.append(tool(f"t{n}", title=f"ls {n}", status="completed", historical=True))
    return envelopes


def _shown(store: TimelineStore, key: str = KEY) -> list[tuple[str, str]]:
    timeline = store.timelines[key]
    return [(row.kind, row.key) for row in timeline.rows]


def test_a_replay_sent_ahead_ends_in_the_same_timeline_as_one_handed_over_whole():
    history = _history(40)
    whole = TimelineStore()
    whole.load(LoadResult(KEY, GEN, "/w", tuple(history)))

    ahead = TimelineStore()
    for start in range(0, 100, 50):
        assert ahead.apply(ReplayEnvelope(KEY, GEN, tuple(history[start : start + 50]))) == (None, [])
        assert KEY not in ahead.timelines  # nothing of it shows before the load commits
    ahead.load(LoadResult(KEY, GEN, "/w", tuple(history[100:]), replayed=100))

    assert _shown(ahead) == _shown(whole) and len(_shown(whole)) > 80
    assert ahead.timelines[KEY].items.keys() == whole.timelines[KEY].items.keys()


def test_a_replay_of_a_generation_already_committed_is_ignored():
    store = TimelineStore()
    store.load(LoadResult(KEY, GEN, "/w", tuple(_history(2))))
    before = _shown(store)
    store.apply(ReplayEnvelope(KEY, GEN, tuple(_history(3))))
    assert _shown(store) == before and store.ignored == 9


def test_a_newer_loads_replay_replaces_an_unfinished_one():
    store = TimelineStore()
    store.apply(ReplayEnvelope("other", GEN + 1, tuple(_history(3, "other", GEN + 1))))
    store.apply(ReplayEnvelope(KEY, GEN + 2, tuple(_history(2, KEY, GEN + 2))))
    timeline, _ = store.load(LoadResult(KEY, GEN + 2, "/w", (), replayed=4))
    assert [row.kind for row in timeline.rows].count("user") == 2 and "other" not in store.timelines


def test_a_failed_loads_replay_is_never_shown():
    store = TimelineStore()
    store.apply(ReplayEnvelope(KEY, GEN, tuple(_history(3))))
    store.drop_replay()  # the load failed
    timeline, _ = store.load(LoadResult(KEY, GEN, "/w", ()))
    assert [row for row in timeline.rows if row.kind == "user"] == []


def test_dropping_another_generations_replay_keeps_this_one():
    store = TimelineStore()
    store.apply(ReplayEnvelope(KEY, GEN, tuple(_history(3))))
    store.drop_replay(GEN + 1)  # a result not shown, of another load
    timeline, _ = store.load(LoadResult(KEY, GEN, "/w", (), replayed=9))
    assert len([row for row in timeline.rows if row.kind == "user"]) == 3


def test_a_replayed_messages_text_is_kept_as_one_string():
    """Each streamed chunk of a history would otherwise stay a string object of its own."""
    chunks = [agent(word, "a0", historical=True) for word in ("One ", "two ", "three.")]
    store = TimelineStore()
    timeline, _ = store.load(LoadResult(KEY, GEN, "/w", (user("q", "u0", historical=True), *chunks)))
    [part] = [
        p
        for item in timeline.items.values()
        if item.kind == "message" and item.role == "assistant"
        for p in item.parts
    ]
    assert part.chunks == ["One two three."] and part.text == "One two three."
