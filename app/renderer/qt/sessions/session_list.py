"""The sidebar: the sessions made here plus the agent's `session/list` pages, heartbeat-only ones hidden,
each with its title (`session_titles.py`), a spinner while its turn runs, a dot when one finished
unseen, and "needs you" while its agent waits for a permission answer or one of its terminal-action
proposals waits for the user's decision (in a chat that may not be on screen: `waiting.py`); rename (a
local name), pin (kept under the chats that need the user, above the others), archive (out of the list
until the user shows the archived ones, then in a group of their own at the end; a chat that needs the
user is listed all the same), close and delete. A chat made here is listed from its first message on:
an empty "New chat" is not a row (one left behind with a typed draft is, so the draft can be reached
again). Rows fall in groups by when they were last touched (`session_times.py`) or by their folder
(`session_folders.py`), a chat that needs the user in a group of its own at the top; a query keeps
the rows whose title holds it. A keyed list model applied as a diff: a spinner starting is one row change,
never a reset."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import Envelope, LoadResult, SessionPage, SessionSummary
from app.contract.host_api import SessionsHost
from app.contract.local_stores import LocalStores
from app.contract.proposals import ProposalEnvelope
from app.renderer.present.session_folders import folder_group, grouped_by_first
from app.renderer.present.session_query import parse_query
from app.renderer.present.session_times import parse_time, time_group, time_label
from app.renderer.present.session_titles import session_title
from app.renderer.qt.agents.picker import AgentPicker
from app.renderer.qt.common.keyed_list_model import KeyedListModel
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.qt.sessions.waiting import Asking, WaitingChats
from app.renderer.timeline.heartbeat import is_heartbeat_only
from app.renderer.timeline.turn_view import item_text

PREVIEW_CHARS = 200
NEEDS_YOU = "Needs you"  # the group of chats waiting for the user, above the others
RECENT = 3  # chats an empty chat offers
SEARCH_PAGES = 50  # older pages one search loads at most
PINNED = "Pinned"  # the chats the user pinned, under those that need them, above the days
ARCHIVED = "Archived"  # the chats the user archived, at the end when they are shown
GROUPINGS = ("date", "folder")
_LIVE_KINDS = frozenset({"prompt_sent", "prompt_settled", "agent_state"})


class SessionList(ChatPart):
    changed = Signal()
    capabilitiesChanged = Signal()
    groupingChanged = Signal(str)  # the user chose another grouping (the window remembers it)
    chatEnded = Signal(str)  # a chat was closed or deleted

    def __init__(
        self,
        host: SessionsHost,
        stores: LocalStores,
        session: CurrentSession,
        ops: Operations,
        parent: QObject | None = None,
        agents: AgentPicker | None = None,
        clock: Callable[[], datetime] = datetime.now,
        branch_of: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__(session, ops, parent)
        self._branch_of = branch_of  # the title of the chat a chat continues ("" for none)
        self._clock = clock  # local time, for the groups and the rows' times
        self._query = ""  # as typed: title words and `agent:` (session_query.py); "" lists every chat
        self._search_pages = 0  # older pages loaded for this search
        self._host = host
        self._agents = agents  # each chat's agent (its mark on the row, the filter)
        self._agent_filter = ""  # "" lists every agent's chats
        self._refreshing = False
        self._stores = stores
        self.model = KeyedListModel("key", self, section="group")
        self._listed: list[SessionSummary] = []
        self._local_keys: list[str] = []
        self._next_cursor: str | None = None
        self._unseen: set[str] = set()
        self.on_screen: Callable[[str], bool] = lambda _key: False  # a chat in a tile beside is seen
        self._unsent: set[str] = set()  # chats made here with no message yet: not listed
        self.waiting = WaitingChats()
        self._folders: dict[str, str] = {}  # session key -> its folder, as its opening said
        self._group_by = "date"  # or "folder"
        self._show_archived = False
        self._archived_count = 0  # archived chats the last listing left out or showed
        self._shown_entries: list[dict[str, Any]] = []  # as the model has them (the recent ones read them)
        self.changed.connect(self._apply)
        session.shown.connect(self.chat_shown)
        session.sessionChanged.connect(self.changed)  # no row is current while a replayed trace is shown
        session.started.connect(lambda: self.refresh())
        session.metadataChanged.connect(self._on_metadata)
        session.settledElsewhere.connect(self._on_settled_elsewhere)
        host.subscribe(self._on_envelope)

    def _apply(self) -> None:
        self._shown_entries = self.entries()
        self.model.apply(self._shown_entries)

    # --- what is listed -------------------------------------------------------------------------------
    def _on_metadata(self, fields: list[str]) -> None:
        if "title" in fields:
            self.changed.emit()

    def _on_envelope(self, envelope: Envelope) -> None:
        if isinstance(envelope, Asking) and self.waiting.asking(envelope):
            self.changed.emit()
        if isinstance(envelope, ProposalEnvelope) and self.waiting.proposal(envelope):
            self.changed.emit()
        if envelope.kind in _LIVE_KINDS:  # a spinner starts or stops; the agent's capabilities
            self.changed.emit()
        if envelope.kind == "agent_state":
            self.capabilitiesChanged.emit()
        if envelope.kind == "agents_changed":  # another agent runs now: its chats are listed too
            self.refresh()

    def needs_you(self, key: str) -> bool:
        return self.waiting.needs_you(key)

    def _on_settled_elsewhere(self, key: str) -> None:
        if self.on_screen(key):
            return
        self._unseen.add(key)
        self.changed.emit()

    def chat_shown(self, result: LoadResult) -> None:
        key = result.session_key
        self._unseen.discard(key)
        if result.cwd:
            self._folders[key] = result.cwd
        if result.created and key not in self._local_keys:
            self._local_keys.insert(0, key)
            self._unsent.add(key)  # a row once its first message is sent
        elif key not in self._local_keys and all(s.session_key != key for s in self._listed):
            self._local_keys.insert(0, key)  # a chat opened by itself (the one reopened at start)
        if not self._stores.previews.get(key):
            self._remember_first_question(key)
        self.changed.emit()

    def _remember_first_question(self, key: str) -> None:
        """A loaded session's first user text is its preview (its title until the agent names it)."""
        timeline = self._session.timeline
        group = next((g for g in timeline.grouping.groups if g.kind == "user"), None) if timeline else None
        if timeline is None or group is None:
            return
        text = item_text(timeline.items[group.item_ids[0]]).strip()
        if text:
            self._stores.previews.set(key, text[:PREVIEW_CHARS])

    def message_sent(self, key: str, text: str) -> None:
        """The first message sent in a session lists a chat made here and becomes its preview."""
        if key in self._unsent:
            self._unsent.discard(key)
            self.changed.emit()
        if text and not self._stores.previews.get(key):
            self._stores.previews.set(key, text[:PREVIEW_CHARS])
            self.changed.emit()

    def refresh(self, more: bool = False) -> None:
        """The first page of every running agent's sessions (or the next page): agents that cannot
        list sessions are simply not asked."""
        if self._refreshing:
            return
        self._refreshing = True
        self._ops.run(
            self._host.list_sessions(self._next_cursor if more else None),
            "Could not list the sessions",
            done=lambda page: self._listed_page(page, more),
            after=self._refreshed,
        )

    def _refreshed(self) -> None:
        self._refreshing = False
        self._search_older()

    def _search_older(self) -> None:
        """While a search is on, the agent's older pages come in too: a chat from last year is found
        without scrolling the list to its end first (bounded: an agent may page for ever)."""
        if self._query.strip() and self._next_cursor and self._search_pages < SEARCH_PAGES:
            self._search_pages += 1
            self.refresh(more=True)

    def _listed_page(self, page: SessionPage, more: bool) -> None:
        if more:
            known = {s.session_key for s in self._listed}
            self._listed.extend(s for s in page.sessions if s.session_key not in known)
        else:
            self._listed = list(page.sessions)
        self._next_cursor = page.next_cursor
        self.changed.emit()

    def title_of(self, key: str, summary: SessionSummary | None = None) -> str:
        return session_title(
            key,
            name=self._stores.names.get(key),
            meta_title=self._session.store.title_of(key),
            listed_title=summary.title if summary is not None else self._listed_title(key),
            preview=self._stores.previews.get(key),
        )

    def _listed_title(self, key: str) -> str | None:
        return next((s.title for s in self._listed if s.session_key == key), None)

    def entries(self) -> list[dict[str, Any]]:
        listed = {s.session_key: s for s in self._listed}
        current = self._session.sessionKey
        now = self._clock()
        asked = parse_query(self._query)
        agents = asked.agents(self._agents.names()) if self._agents is not None else None
        if self._agent_filter:
            agents = {self._agent_filter} if agents is None else agents & {self._agent_filter}
        entries = []
        self._archived_count = 0
        for key in dict.fromkeys([*self._local_keys, *listed]):
            summary = listed.get(key)
            evidence = {
                "sessionId": key,
                "title": summary.title if summary else None,
                "_meta": summary.meta if summary else {},
                "preview": self._stores.previews.get(key),
            }
            if (key != current and is_heartbeat_only(evidence)) or self._is_empty_chat(key, current):
                continue
            agent = self._agents.agent_of(key) if self._agents is not None else ""
            if agents is not None and agent not in agents:
                continue
            title = self.title_of(key, summary)
            if asked.title and asked.title not in title.casefold():
                continue
            updated = parse_time(summary.updated_at) if summary else None
            needs_you = self.needs_you(key)
            pinned = bool(self._stores.pins.get(key))
            archived = bool(self._stores.archived.get(key)) and not needs_you and key != current
            self._archived_count += archived
            if archived and not self._show_archived:
                continue
            if needs_you or archived or pinned:
                group = NEEDS_YOU if needs_you else ARCHIVED if archived else PINNED
            elif self._group_by == "folder":
                group = folder_group(self._folders.get(key) or (summary.cwd if summary else None))
            else:
                group = time_group(updated, now)
            entries.append(
                {
                    **self._agent_mark(agent),
                    "key": key,
                    "title": title,
                    "live": self._host.is_live(key),
                    "unseen": key in self._unseen,
                    "needsYou": needs_you,
                    "needsYouWhy": self.waiting.why(key),
                    "current": key == current,
                    "pinned": pinned,
                    "archived": archived,
                    "branchOf": self._branch_of(key) if self._branch_of is not None else "",
                    "group": group,
                    "when": time_label(updated, now),
                }
            )
        # stable: within a group the rows keep the agent's order; folders in the order their newest came
        entries = grouped_by_first(entries) if self._group_by == "folder" else entries
        return sorted(entries, key=lambda e: (not e["needsYou"], e["archived"], not e["pinned"]))

    def _agent_mark(self, agent_id: str) -> dict[str, Any]:
        """The chat's agent as its row shows it (a mark only when more than one agent is offered)."""
        entry = self._agents.entry_of(agent_id) if self._agents is not None and agent_id else None
        if entry is None or self._agents is None or self._agents.count < 2:
            return {"agent": agent_id, "agentName": "", "agentInitials": "", "agentColour": 0}
        return {
            "agent": agent_id,
            "agentName": entry["name"],
            "agentInitials": entry["initials"],
            "agentColour": entry["colourIndex"],
        }

    @Slot(str)
    def setQuery(self, text: str) -> None:
        """List only the chats whose title holds `text`'s words (any case), of the agents an `agent:` word
        names; "" lists them all. The agent's older pages are searched too."""
        if text != self._query:
            self._query = text
            self._search_pages = 0
            self.changed.emit()
            if not self._refreshing:
                self._search_older()

    @Slot(str)
    def setAgentFilter(self, agent_id: str) -> None:
        """List only this agent's chats ("" for every agent's)."""
        if agent_id != self._agent_filter:
            self._agent_filter = agent_id
            self.changed.emit()

    def _is_empty_chat(self, key: str, current: str) -> bool:
        """Made here and nothing sent yet: no row, unless it was left with a draft to come back to."""
        return key in self._unsent and (key == current or not self._stores.drafts.get(key).strip())

    # --- actions -------------------------------------------------------------------------------------
    @Slot()
    def loadMore(self) -> None:
        if self._next_cursor:
            self.refresh(more=True)

    @Slot(str, str)
    def rename(self, key: str, title: str) -> None:
        self._stores.names.set(key, title.strip())
        self.changed.emit()

    @Slot(str, bool)
    def setPinned(self, key: str, pinned: bool) -> None:
        """Keep the chat at the top of the list (under those that need the user), or let it go back."""
        self._stores.pins.set(key, self._clock().isoformat(timespec="seconds") if pinned else "")
        self.changed.emit()

    @Slot(str, bool)
    def setArchived(self, key: str, archived: bool) -> None:
        """Take the chat out of the list (shown again with the archived ones), or bring it back."""
        self._stores.archived.set(key, self._clock().isoformat(timespec="seconds") if archived else "")
        self.changed.emit()

    @Slot(bool)
    def setShowArchived(self, shown: bool) -> None:
        if shown != self._show_archived:
            self._show_archived = shown
            self.changed.emit()

    @Slot(str)
    def setGroupBy(self, grouping: str) -> None:
        """Group the chats by when they were last touched ("date") or by their folder ("folder")."""
        if grouping in GROUPINGS and grouping != self._group_by:
            self._group_by = grouping
            self.changed.emit()
            self.groupingChanged.emit(grouping)

    @Slot(str)
    def close(self, key: str) -> None:
        self._end(key, delete=False)

    @Slot(str)
    def delete(self, key: str) -> None:
        self._end(key, delete=True)

    def _end(self, key: str, delete: bool) -> None:
        call = self._host.delete_session(key) if delete else self._host.close_session(key)
        failed = f"Could not {'delete' if delete else 'close'} the session"
        self._ops.run(call, failed, done=lambda _: self._ops.spawn(self._ended(key, delete)))

    async def _ended(self, key: str, deleted: bool) -> None:
        if deleted:  # a pin or an archive mark outliving its chat would mark nothing
            self._stores.pins.set(key, "")
            self._stores.archived.set(key, "")
        self._listed = [s for s in self._listed if s.session_key != key]
        self._local_keys = [k for k in self._local_keys if k != key]
        self.waiting.forget(key)
        self.chatEnded.emit(key)  # a tile showing it closes
        await self._session.ended(key)
        self.changed.emit()

    # --- properties ----------------------------------------------------------------------------------
    def _supports(self, what: str) -> bool:
        info = self._host.agent_info
        return info is not None and info.supports("sessionCapabilities", what)

    sessionModel = Property(QObject, lambda self: self.model, constant=True)
    # an empty chat offers the first few rows under its composer (RecentChats.qml), not the chat shown
    recent = variant_property(
        "QVariantList",
        lambda self: [e for e in self._shown_entries if not e["current"]][:RECENT],
        notify=changed,
    )
    agentFilter = Property(str, lambda self: self._agent_filter, notify=changed)
    groupBy = Property(str, lambda self: self._group_by, notify=changed)
    showArchived = Property(bool, lambda self: self._show_archived, notify=changed)
    archivedCount = Property(int, lambda self: self._archived_count, notify=changed)
    query = Property(str, lambda self: self._query, notify=changed)
    # a search is on and older pages are still coming in ("Searching older chats…")
    searchingOlder = Property(
        bool, lambda self: bool(self._query.strip()) and self._next_cursor is not None, notify=changed
    )
    hasMore = Property(bool, lambda self: self._next_cursor is not None, notify=changed)
    canClose = Property(bool, lambda self: self._supports("close"), notify=capabilitiesChanged)
    canDelete = Property(bool, lambda self: self._supports("delete"), notify=capabilitiesChanged)
