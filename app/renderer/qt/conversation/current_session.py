"""The session the window shows: its timeline (kept in the store, beside those of sessions whose turn is
still running), the list model showing it, and the envelopes feeding them. Opening, creating and
reconnecting sessions go through here; the other views follow its signals.

Each open, new chat or reconnect is a request of its own, numbered here: only the newest one's result is
shown (seed 003: a local request sequence rejects stale load completions), so a slow load the user
already left never flashes on screen, and a failed one the user already left neither posts its notice
nor replaces anything with a new chat. A failed open offers Retry, which opens it again."""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator

from PySide6.QtCore import Property, QObject, QTimer, Signal, Slot

from app.contract.envelopes import Envelope, LoadResult, PromptSettledEnvelope
from app.contract.errors import CapabilityMissing, HostError, SignInRequired
from app.contract.heap import trim_heap
from app.contract.host_api import AgentsHost, SessionsHost
from app.renderer.qt.common.notices import AGENT, OPEN, SESSION
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import value_property
from app.renderer.qt.conversation.timeline_model import TimelineModel
from app.renderer.timeline.parts import Part
from app.renderer.timeline.reducer import TIMELINE_KINDS, Timeline
from app.renderer.timeline.rows import MetadataChanged, TimelineEvent, row_changes
from app.renderer.timeline.store import TimelineStore

log = logging.getLogger(__name__)

FAILED_ELSEWHERE_KEPT = 64  # failures of chats not shown, kept until their sender asks (one per send)
TRIM_AGAIN_MS = 1000  # the chat left behind is gone by then: its delegates are deleted in later turns


def settle_heap() -> None:
    """Move what a load built (a long history is millions of objects) out of the collector's sight.
    Python's full collections walk every tracked object: with a 2,000-turn history each one was a
    ~300 ms freeze in the middle of streaming. Young garbage is collected first; cyclic garbage already
    old is left (a small, bounded cost against a visible stall)."""
    gc.collect(1)
    gc.freeze()
    trim_heap()  # the pages a chat just left freed go back to the system
    QTimer.singleShot(TRIM_AGAIN_MS, trim_heap)  # and those its rows' delegates freed since


class CurrentSession(QObject):
    sessionChanged = Signal()  # another session is shown (the view scrolls to its newest row)
    shown = Signal(object)  # the LoadResult just shown
    started = Signal()  # the agent is up and the first chat is open
    metadataChanged = Signal(list)  # names of the shown session's metadata fields that changed
    rowsChanged = Signal()  # the shown timeline's rows changed (structure or content)
    liveChanged = Signal()  # a turn started or ended in the shown session
    settledElsewhere = Signal(str)  # a turn ended in a session not shown
    openingChanged = Signal()

    def __init__(
        self,
        host: SessionsHost,
        model: TimelineModel,
        ops: Operations,
        parent: QObject | None = None,
        agents: AgentsHost | None = None,
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._agents = agents
        self.model = model
        self._ops = ops
        # what shows a chat its agent cannot open again (no session/load, not running): the search index
        self.unopenable: Callable[[str], None] | None = None
        self.store = TimelineStore()
        self._key = ""
        self._busy = False
        self._opening = ""  # what is being opened while the agent is asked ("Opening a new chat")
        self._request = 0  # the newest open/new/reconnect; only its result is shown
        self._failed_elsewhere: dict[str, bool] = {}  # message id -> whether it reached the agent
        self._trace: Timeline | None = None  # a replayed trace shown instead of a chat
        self.trace_title = ""
        self.read_only_note = ""  # what the read-only view is, when not a trace (the search index's copy)
        self.read_only_agent = ""  # the agent a read-only chat was with, when known
        host.subscribe(self._on_envelope)
        ops.notices.reopenRequested.connect(self.openSession)

    # --- state -------------------------------------------------------------------------------------
    @property
    def timeline(self) -> Timeline | None:
        if self._trace is not None:
            return self._trace
        return self.store.timelines.get(self._key)

    def _get_busy(self) -> bool:
        return self._busy

    sessionKey = value_property(str, lambda self: self._key, notify=sessionChanged)
    # a replayed trace is shown: nothing in it can be sent to, answered or changed (trace_view.py)
    readOnly = Property(bool, lambda self: self._trace is not None, notify=sessionChanged)
    readOnlyNote = Property(str, lambda self: self.read_only_note, notify=sessionChanged)
    busy = Property(bool, _get_busy, notify=liveChanged)
    opening = Property(str, lambda self: self._opening, notify=openingChanged)

    @contextlib.contextmanager
    def _waiting(self, what: str) -> Iterator[None]:
        """Say what the window waits for while the agent is asked (every request has a deadline)."""
        self._opening = what
        self.openingChanged.emit()
        try:
            yield
        finally:
            self._opening = ""
            self.openingChanged.emit()

    def workspace(self) -> str | None:
        """The shown session's folder (where files are attached from and `@` mentions look)."""
        timeline = self.timeline
        if timeline is None:
            return None
        return self._host.session_workspace(timeline.session_key, timeline.generation)

    def _update_busy(self) -> None:
        timeline = self.timeline
        busy = self._trace is None and timeline is not None and timeline.live_message_id is not None
        if busy != self._busy:
            self._busy = busy
            self.liveChanged.emit()

    # --- envelopes ---------------------------------------------------------------------------------
    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind not in TIMELINE_KINDS:
            if envelope.kind == "agent_state" and envelope.state == "ready":
                self._ops.notices.clear(AGENT)  # a start or reconnect failure is over
            return
        timeline, events = self.store.apply(envelope)
        if timeline is not None and timeline.session_key == self._key:
            self._show_events(events)
        elif envelope.kind == "prompt_settled" and envelope.session_key != self._key:
            if envelope.error is not None and timeline is not None:
                self._remember_failure(timeline, envelope.client_message_id)
            self.store.keep_only(self._key)  # its turn is over: a later visit loads it again
            self.settledElsewhere.emit(envelope.session_key)

    def _remember_failure(self, timeline: Timeline, message_id: str) -> None:
        """A turn failed in a chat not shown: whether its message reached the agent is known only now,
        before its timeline is dropped (the sender asks right after, `settle_failed`)."""
        self._failed_elsewhere[message_id] = timeline.optimistic.get(message_id) in timeline.items
        while len(self._failed_elsewhere) > FAILED_ELSEWHERE_KEPT:
            del self._failed_elsewhere[next(iter(self._failed_elsewhere))]

    def _show_events(self, events: list[TimelineEvent]) -> None:
        self.model.push(events)
        fields = [e.field for e in events if isinstance(e, MetadataChanged)]
        if fields:
            self.metadataChanged.emit(fields)
        if row_changes(events):
            self.rowsChanged.emit()
        self._update_busy()

    def add_optimistic(self, message_id: str, text: str, parts: Iterable[Part], sent_at: float) -> None:
        """The user's message, in the model before the prompt is sent (not a frame later)."""
        timeline = self.timeline
        if timeline is not None:
            self._show_events(timeline.add_optimistic(message_id, text, parts, sent_at=sent_at))
            self.model.flush()

    def settle_failed(self, session_key: str, message_id: str, error: str) -> bool:
        """A prompt that failed: make sure its timeline knows (a refusal before sending produced no
        envelope). True when the message reached the agent (it is still shown)."""
        timeline = self.store.timelines.get(session_key)
        if timeline is None:  # it failed while another chat was shown (its timeline is gone)
            return self._failed_elsewhere.pop(message_id, False)
        if timeline.live_message_id == message_id:
            settled = PromptSettledEnvelope(session_key, timeline.generation, message_id, None, error, 0.0)
            events = timeline.apply(settled)
            if session_key == self._key:
                self._show_events(events)
        return timeline.optimistic.get(message_id) in timeline.items

    # --- showing sessions --------------------------------------------------------------------------
    def show_trace(self, timeline: Timeline, title: str, note: str = "", agent: str = "") -> None:
        """A replayed trace's session (or a chat as the search index keeps it: `note` says so), shown
        read-only instead of a chat: no chat of an agent is shown (the key is empty), so nothing the
        window does reaches an agent from it."""
        self._trace = timeline
        self.trace_title, self.read_only_note, self.read_only_agent = title, note, agent
        self._key = ""
        self.store.keep_only("")
        self.model.set_timeline(timeline)
        self._update_busy()
        self.sessionChanged.emit()

    def clear(self) -> None:
        """Nothing shown (a closed tile, kept for the next one): what was being opened here is not
        shown, and the chat's timeline goes unless its turn still runs."""
        self._next_request()
        self._trace, self.trace_title, self.read_only_note, self.read_only_agent = None, "", "", ""
        self._key = ""
        self.store.keep_only("")
        self.model.set_timeline(None)
        self._update_busy()
        self.sessionChanged.emit()

    def show(self, result: LoadResult) -> None:
        self._trace, self.trace_title, self.read_only_note, self.read_only_agent = None, "", "", ""
        timeline, _ = self.store.load(result)
        changed = result.session_key != self._key
        self._key = result.session_key
        self.store.keep_only(self._key)
        self.model.set_timeline(timeline)
        settle_heap()
        self._update_busy()
        self._ops.notices.clear(SESSION)  # whatever could not be opened before, a chat is open now
        self._ops.notices.showing(self._key)  # a chat's own notice waits for it; this one's comes back
        self.shown.emit(result)
        if changed:
            self.sessionChanged.emit()

    def start(self, reopen: str = "") -> None:
        """Start the agent, then show `reopen` (the chat shown when ClawQt quit) or a new chat."""
        self._ops.spawn(self._start(reopen))

    async def _start(self, reopen: str) -> None:
        try:
            await self._host.start()
        except HostError as exc:
            self._ops.notices.show(str(exc), topic=AGENT, details=exc.details)
            return
        if not (reopen and await self._reopen(reopen)):
            await self.new_chat()
        self.started.emit()

    async def _reopen(self, key: str) -> bool:
        """The chat shown when ClawQt quit, shown again; False (and a new chat instead, said nowhere:
        the user asked for nothing) when it cannot be opened any more."""
        request = self._next_request()
        try:
            with self._waiting("Opening the session\u2026"):
                result = await self._host.activate_session(key)
        except SignInRequired:
            return True  # the sign-in panel says so and opens a chat once signed in
        except HostError as exc:
            log.info("the chat shown last (%s) could not be opened again: %s", key, exc)
            return False
        if not self._superseded(request):
            self.show(result)
        return True

    @Slot()
    def newChat(self) -> None:
        """Ctrl+N: a new chat with the agent its folder's project settings name, else the one the user
        made a chat with last."""
        self._ops.spawn(self.new_chat(self._agents.agent_for_new_chat() if self._agents is not None else ""))

    def _next_request(self) -> int:
        self._request += 1
        return self._request

    def _superseded(self, request: int) -> bool:
        """The user chose something else after this request: its result is not shown."""
        return request != self._request

    async def new_chat(self, agent_id: str = "", target: str = "") -> None:
        """A new chat with `agent_id` (with the agent of the chat shown when none is named); `target`:
        one of the agents behind it (OpenClaw's own), "" for its default."""
        if agent_id and self._agents is not None:
            opening = self._agents.new_session_with(agent_id, target=target)
        else:
            opening = self._host.new_session()
        await self.open_new(opening, "Opening a new chat\u2026", "Could not start a new chat")

    async def open_new(
        self,
        opening: Awaitable[LoadResult],
        waiting: str,
        failure: str,
        before_show: Callable[[LoadResult], None] | None = None,
    ) -> LoadResult | None:
        """Show the chat `opening` makes, saying `waiting` meanwhile and `failure` with the reason if it
        fails; `before_show` (the chat's draft) runs before it is shown. Not shown (None) when the
        user chose another chat meanwhile."""
        request = self._next_request()
        try:
            with self._waiting(waiting):
                result = await opening
        except SignInRequired:
            return None  # the sign-in panel says so and opens the chat once signed in
        except HostError as exc:
            if not self._superseded(request):
                self._ops.notices.failed(failure, exc, topic=SESSION)
            return None
        if self._superseded(request):
            return None
        if before_show is not None:
            before_show(result)
        self.show(result)
        return result

    @Slot(str)
    def openSession(self, key: str) -> None:
        if key and key != self._key:
            self._ops.spawn(self._open(key))

    async def _open(self, key: str) -> None:
        request = self._next_request()
        try:
            with self._waiting("Opening the session\u2026"):
                result = await self._host.activate_session(key)
        except HostError as exc:
            if self._superseded(request):
                return  # the user went on to another chat: nothing to say, nothing to replace
            if self.unopenable is not None and isinstance(exc, CapabilityMissing):
                self.unopenable(key)  # its agent offers no session/load and no longer runs it
                return
            # stays up over the empty chat that replaces it: the user asked for that session
            self._ops.notices.failed("Could not open that session", exc, topic=OPEN, reopen=key)
            await self.new_chat()  # a load failure leaves an empty, usable chat
            return
        if self._superseded(request):
            self.store.drop_replay(result.generation)
            return  # a later choice is shown instead: this result never flashes
        self._ops.notices.clear(
            keep_chat_own=True
        )  # the user's choice went through: earlier notices are moot
        self.show(result)

    async def reopen_for_prompt(self) -> bool:
        """The chat shown here while its agent has another of its chats open (a tile beside shows
        it): opened again so a prompt can go to it. False when it could not be (said) or the user
        went on to another chat meanwhile."""
        key = self._key
        request = self._next_request()
        try:
            with self._waiting("Opening the session\u2026"):
                result = await self._host.activate_session(key)
        except HostError as exc:
            if not self._superseded(request):
                self._ops.notices.failed("Could not open this chat again", exc, topic=SESSION)
            return False
        if self._superseded(request) or result.session_key != key:
            return False
        self.show(result)
        return True

    async def reconnect(self) -> None:
        """Start the agent again and reload the session it was showing (or a new chat)."""
        host = self._host
        key = host.last_active_key or self._key
        request = self._next_request()
        try:
            await host.start()
            info = host.agent_info
            reload = bool(key) and info is not None and info.supports("loadSession")
            with self._waiting("Opening the session\u2026" if reload else "Opening a new chat\u2026"):
                result = await (host.load_session(key) if reload else host.new_session())
        except SignInRequired:
            return  # the sign-in panel again, with the agent's words
        except HostError as exc:
            self.store.drop_replay()
            if not self._superseded(request):
                self._ops.notices.failed("Reconnect failed", exc, topic=AGENT)
            return
        if not self._superseded(request):
            self.show(result)

    async def ended(self, key: str) -> None:
        """A session was closed or deleted: forget its timeline; a new chat replaces it if shown."""
        self.store.forget(key)
        self._ops.notices.forget(key)
        if key == self._key:
            self._key = ""
            await self.new_chat()
