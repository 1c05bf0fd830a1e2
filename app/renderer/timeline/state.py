"""The state every rule of the reducer shares, and the primitives that change it: a `TimelineState`
holds one session's items in order, the open segments and thought, the optimistic messages, the turn
timings, the metadata, the terminals and the grouping, and appends, places, touches and removes items
so the grouping says which rows changed. The rule sets (`message_rules.py`, `tool_rules.py`,
`proposal_rules.py`) build on it, `transcript_rules.py` takes one, and `Timeline` (reducer.py) is the
state with every rule and the dispatch of envelopes. Pure Python, no Qt."""

from __future__ import annotations

from dataclasses import dataclass

from app.contract.credentials import CredentialStream
from app.contract.hidden_context import HiddenContextFilter
from app.renderer.timeline.grouping import Grouping
from app.renderer.timeline.items import Item
from app.renderer.timeline.metadata import Metadata
from app.renderer.timeline.rows import RowsChanged, TimelineEvent
from app.renderer.timeline.terminals import TerminalRegistry


@dataclass
class TurnTiming:
    """Client-observed timing of one prompt: from the optimistic send to settlement."""

    sent_at: float | None
    elapsed_s: float | None = None
    stopped: bool = False  # the user stopped it (settled `cancelled`, or after Stop whatever it said)
    unconfirmed: bool = False  # ClawQt ended it: the agent did not answer Stop within the grace
    tokens: dict[str, int] | None = None  # the agent's count of the turn's tokens (`turn_tokens`)


class TimelineState:
    """One session's timeline state and its primitives (no rules: those build on it)."""

    def __init__(self, session_key: str, generation: int, *, cwd_known: bool = True) -> None:
        self.session_key = session_key
        self.generation = generation
        self.cwd_known = cwd_known
        self.arrived_at: float | None = None  # when the update being applied arrived (live ones only)
        self.order: list[str] = []
        self.items: dict[str, Item] = {}
        self.open_segments: dict[str, str] = {}  # messageId -> open segment item id
        self.segment_counts: dict[str, int] = {}
        self.open_thought: str | None = None
        self.optimistic: dict[str, str] = {}  # client message id -> optimistic segment id
        # messageId ("" without one) -> removes ClawQt's hidden prompt context from echoed user text
        self.hidden_filters: dict[str, HiddenContextFilter] = {}
        # the agent text item credentials are being cut in as it streams, and its stream
        self.credential_stream: tuple[str, CredentialStream] | None = None
        self.timings: dict[str, TurnTiming] = {}
        self.live_message_id: str | None = None  # the prompt whose turn is running, if any
        self.meta = Metadata()
        self.terminals = TerminalRegistry()
        self.grouping = Grouping(self.items)
        self.ignored = 0
        self._batch = False
        self._changes: list[TimelineEvent] = []

    # --- item plumbing ---------------------------------------------------------------------------
    def append(self, item: Item) -> None:
        self.items[item.id] = item
        self.order.append(item.id)
        if not self._batch:
            self._changes.extend(self.grouping.appended(item.id))

    def place_after(self, anchor_id: str, item: Item) -> None:
        """An item inside the timeline, not at its end (a transcript card of an older turn): only the
        rows around it change."""
        self.items[item.id] = item
        self.order.insert(self.order.index(anchor_id) + 1, item.id)
        if not self._batch:
            changes = self.grouping.inserted(item.id, anchor_id)
            self._changes.extend(changes if changes is not None else self.grouping.rebuild(self.order))

    def touch(self, item: Item) -> None:
        item.touch()
        if not self._batch:
            self._changes.extend(self.grouping.changed(item.id))

    def remove(self, item_id: str) -> None:
        if item_id not in self.items:
            return
        for index in range(len(self.order) - 1, -1, -1):
            if self.order[index] == item_id:
                del self.order[index]
                break
        if not self._batch:
            self._changes.extend(self.grouping.removed(item_id))
        del self.items[item_id]

    def close_segments(self) -> None:
        """Every process item closes ALL open segments (and the open thought)."""
        self.open_segments.clear()
        self.open_thought = None

    def turn_settled(self, user_item_id: str) -> None:
        """Every row of the answering turn changes: nothing in it streams any more, and its footer's
        "8 s elapsed" becomes "Took 8 s"."""
        footer = self.grouping.footer_after(user_item_id)
        if footer is None:
            return
        turn = self.grouping.group_of_row(self.grouping.rows[footer])
        start = turn.row_start if turn is not None else footer
        self._changes.append(RowsChanged(start, tuple(self.grouping.rows[start : footer + 1])))
