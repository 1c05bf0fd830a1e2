"""Timelines by session key. The renderer keeps the selected session's timeline and those of
sessions with a live prompt (`keep_only`, called when a session is shown and when a turn ends in one
that is not: any other is dropped, and a later visit loads it again); an envelope whose key or
generation matches none of them is ignored (stale load results and updates from an earlier generation
never reach a timeline). Loading alone drops nothing: `clawqt replay` loads every session of a trace and
then reads them all.

Handoff: an update can overtake the load result that creates its timeline (the agent sends it right
after answering `session/new`). Envelopes of a generation newer than any committed load are held in a
bounded in-flight buffer and applied right after that load's batch; older ones are dropped.

Replay: a long load's replay arrives ahead of its result in ReplayEnvelopes; they are reduced at once
into the timeline that load will show (`_replaying`, one at a time: a newer load's replay replaces an
unfinished one), which its LoadResult then completes and groups. A failed load's is dropped
(`drop_replay`), or replaced by the next load's.

Proposal cards are live state, not history: the store keeps the newest envelope of each
(`KeptProposals`) whatever chat is shown, and a reload of that chat shows them again
(proposal_rules.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.contract.envelopes import LoadResult
from app.renderer.timeline.proposal_rules import KeptProposals
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import TimelineEvent


class TimelineStore:
    HANDOFF_LIMIT = 10_000

    def __init__(self, *, cwd_known: bool = True) -> None:
        self.timelines: dict[str, Timeline] = {}
        self.ignored = 0
        self.cwd_known = cwd_known
        self._newest_generation = 0
        self._handoff: list[Any] = []
        self._replaying: Timeline | None = None  # the timeline a running load's replay goes into
        self.titles: dict[str, str] = {}  # the agent's title of each dropped timeline (the sidebar's)
        self.proposals = KeptProposals()
        self._live_calls: set[str] = set()  # keys whose timeline saw a live proposal CLI call

    def load(self, result: LoadResult) -> tuple[Timeline, list[TimelineEvent]]:
        """Commit a load's replay in one batch; a live prompt's return keeps its timeline."""
        existing = self.timelines.get(result.session_key)
        if result.resumed_live and existing is not None and existing.generation == result.generation:
            return existing, []
        timeline = self._replay_timeline(result.session_key, result.generation)
        self._replaying = None
        self.timelines[result.session_key] = timeline
        self._newest_generation = max(self._newest_generation, result.generation)
        timeline.replay(result.updates)
        changes = timeline.end_replay()
        held, self._handoff = self._handoff, []
        for envelope in held:
            generation = getattr(envelope, "generation", 0)
            if generation == result.generation and envelope.session_key == result.session_key:
                changes.extend(timeline.apply(envelope))
            elif generation > result.generation:
                self._handoff.append(envelope)
            else:
                self.ignored += 1
        self._note_live_calls(timeline)
        return timeline, changes

    def _note_live_calls(self, timeline: Timeline) -> None:
        if timeline.live_instances:
            self._live_calls.add(timeline.session_key)

    def _replay_timeline(self, session_key: str, generation: int) -> Timeline:
        """The timeline a load of `session_key` at `generation` replays into: the one its replay began,
        or a new one expecting the cards this run keeps for the session."""
        ongoing = self._replaying
        if ongoing is not None and ongoing.session_key == session_key and ongoing.generation == generation:
            return ongoing
        timeline = Timeline(session_key, generation, cwd_known=self.cwd_known)
        live = (self.timelines.get(key) for key in self._live_calls)  # not every timeline: a trace has many
        self.proposals.note_instances(i for t in live if t is not None for i in t.live_instances)
        timeline.expect_proposals(self.proposals.of(session_key), self.proposals.instances)
        timeline.begin_replay()
        return timeline

    def drop_replay(self, generation: int | None = None) -> None:
        """A load failed or its result is not shown: what its replay built is never shown (None: the
        load that failed, whatever its generation; loads run one at a time)."""
        if self._replaying is not None and generation in (None, self._replaying.generation):
            self._replaying = None

    def _replay(self, envelope: Any) -> None:
        """Part of a running load's replay (a newer generation than any committed): reduced now."""
        if envelope.generation <= self._newest_generation:
            self.ignored += len(envelope.updates)
            return
        self._replaying = self._replay_timeline(envelope.session_key, envelope.generation)
        self._replaying.replay(envelope.updates)

    def apply(self, envelope: Any) -> tuple[Timeline | None, list[TimelineEvent]]:
        key = getattr(envelope, "session_key", None)
        timeline = self.timelines.get(key) if isinstance(key, str) else None
        generation = getattr(envelope, "generation", None)
        if getattr(envelope, "kind", None) == "proposal":
            return self._proposal(timeline, envelope)
        if getattr(envelope, "kind", None) == "replay":
            self._replay(envelope)
            return None, []
        if timeline is None or timeline.generation != generation:
            if (
                isinstance(generation, int)
                and generation > self._newest_generation
                and len(self._handoff) < self.HANDOFF_LIMIT
            ):
                self._handoff.append(envelope)  # its load result has not been committed yet
            else:
                self.ignored += 1
            return None, []
        changes = timeline.apply(envelope)
        self._note_live_calls(timeline)
        return timeline, changes

    def _proposal(
        self, timeline: Timeline | None, envelope: Any
    ) -> tuple[Timeline | None, list[TimelineEvent]]:
        """A card's envelope is kept whatever chat is shown; its timeline (any generation: a card keeps
        the one it was made in) applies it."""
        self.proposals.note(envelope)
        if timeline is None:
            return None, []
        changes = timeline.apply(envelope)
        card = timeline.items.get(f"proposal:{envelope.proposal_id}")
        if card is not None:
            self.proposals.note_channel(envelope.proposal_id, getattr(card, "channel", ""))
        return timeline, changes

    def forget(self, session_key: str) -> None:
        self.timelines.pop(session_key, None)
        self._live_calls.discard(session_key)
        self.titles.pop(session_key, None)
        self.proposals.forget(session_key)

    def keep_only(self, shown_key: str) -> None:
        """Drop every timeline but the shown one and those whose prompt is still running: what a chat
        left behind (its parts, tool output, permission options) is freed when another is shown."""
        for key in [k for k, t in self.timelines.items() if k != shown_key and t.live_message_id is None]:
            dropped = self.timelines.pop(key)
            self._live_calls.discard(key)
            self.proposals.note_instances(dropped.live_instances)  # its replayed CLI calls are this run's
            title = dropped.meta.title
            if title:
                self.titles[key] = title

    def title_of(self, session_key: str) -> str | None:
        """The agent's title for a session: its timeline's, or the one it had when dropped."""
        timeline = self.timelines.get(session_key)
        if timeline is not None and timeline.meta.title:
            return timeline.meta.title
        return self.titles.get(session_key)


def replayed_timelines(outputs: Iterable[Any]) -> list[Timeline]:
    """The sessions a replayed trace's envelopes and committed loads build, in the order they were first
    opened: what `clawqt replay` prints and the inspector's Open trace… shows."""
    store = TimelineStore()
    keys: dict[str, None] = {}  # in the order first opened
    for output in outputs:
        if isinstance(output, LoadResult):
            store.load(output)
            keys.setdefault(output.session_key)
        else:
            store.apply(output)
    return [store.timelines[key] for key in keys if key in store.timelines]
