"""`searchAll` in QML: search every chat of every agent (Ctrl+Shift+F). Results come as the user types
(a short pause after the last key, each search off the event loop; an answer to an older query is
dropped), grouped by chat with its agent, folder and time, the words found marked; filters narrow by
agent, folder, kind of text and time. Opening a hit shows its chat (loaded through its agent when it is
not open) and finds the word in it, so the view is scrolled to it and marked. A chat whose agent is
gone (no agent of the app's list has it), or whose agent cannot open a chat again once it is left (it
offers no `session/load`), is shown read-only as the index keeps it (`readHit` does the same for any
chat: Shift+Enter)."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from typing import Any

from PySide6.QtCore import Property, QObject, QTimer, Signal, Slot
from PySide6.QtGui import QColor

from app.contract.errors import HostError
from app.contract.host_api import AgentsHost
from app.contract.search import Facets, Hit, IndexedChat, IndexSize, SearchHost
from app.contract.settings_hosts import SettingsHost
from app.renderer.present.search_results import filters_of, grouped, is_indexed_as, says, size_words, summary
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.qt.conversation.search import ConversationSearch
from app.renderer.timeline.from_index import index_timeline
from app.renderer.timeline.items import Item
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.search import searchable

TYPING_PAUSE_MS = 150  # after the last key, the search runs
LIMIT = 100  # hits listed at most
FILTERS = ("agent", "folder", "kind", "when")


CANNOT_OPEN = ": its agent cannot open a chat again once it is left"


class SearchAll(QObject):
    changed = Signal()
    resultsChanged = Signal()

    def __init__(
        self,
        host: SearchHost,
        session: CurrentSession,
        find: ConversationSearch,
        ops: Operations,
        parent: QObject | None = None,
        agents: AgentsHost | None = None,
        settings: SettingsHost | None = None,
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._agents = agents
        self._settings = settings
        self._size = ""  # the index's size in words (Settings' Search), read when shown
        self._indexing: asyncio.Task[Any] | None = None  # an agent's every chat being indexed
        self._index_words = ""  # its progress, then what it did
        self._limit_problem = ""
        self._session = session
        self._find = find
        self._ops = ops
        self._open = False
        self._query = ""
        self._filters = {"agent": "", "folder": "", "kind": "all", "when": "any"}
        self._facets = Facets((), ())
        self._hits: list[Hit] = []
        self._rows: list[dict[str, Any]] = []
        self._summary = ""
        self._busy = False
        self._asked = 0  # the newest search started; an older one's answer is dropped
        self._mark = "#fff3a0"
        self._pending: tuple[str, str, str] | None = None  # (chat, word, its item) once that chat is shown
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(TYPING_PAUSE_MS)
        self._typing.timeout.connect(self._search)
        session.shown.connect(self._on_shown)
        session.unopenable = self._read_unopenable  # a chat its agent cannot open again: the index's copy

    isOpen = Property(bool, lambda self: self._open, notify=changed)
    query = Property(str, lambda self: self._query, notify=changed)
    busy = Property(bool, lambda self: self._busy, notify=resultsChanged)
    summary = Property(str, lambda self: self._summary, notify=resultsChanged)
    rows = variant_property("QVariantList", lambda self: self._rows, notify=resultsChanged)
    filters = variant_property("QVariantMap", lambda self: dict(self._filters), notify=changed)
    agents = variant_property("QVariantList", lambda self: list(self._facets.agents), notify=changed)
    folders = variant_property("QVariantList", lambda self: list(self._facets.folders), notify=changed)

    @Slot(bool)
    def setOpen(self, open_: bool) -> None:
        if open_ == self._open:
            return
        self._open = open_
        if open_:  # the agents and folders to filter by, as the index knows them now
            self._ops.run(self._host.facets(), "Could not read the search index", done=self._set_facets)
            if self._query:
                self._typing.start()
        self.changed.emit()

    def _set_facets(self, facets: Facets) -> None:
        self._facets = facets
        self.changed.emit()

    # --- an agent's every chat, indexed when the user asks ------------------------------------------------
    @Slot(str)
    def indexAgent(self, agent_id: str) -> None:
        if self._indexing is not None:
            return
        name = self._agent_name(agent_id)
        self._say(f"Asking {name} for its chats\u2026")
        self._indexing = self._ops.tasks.spawn(self._index(agent_id, name))

    async def _index(self, agent_id: str, name: str) -> None:
        def progress(listed: int, done: int, failed: int) -> None:
            could_not = f" ({failed:,} could not be read)" if failed else ""
            self._say(f"Indexing {name}'s chats: {done:,} of {listed:,}{could_not}\u2026")

        try:
            indexed = await self._host.index_agent(agent_id, progress)
            self._say(f"{name}: {indexed:,} more chat{'s' * (indexed != 1)} indexed." if indexed
                      else f"{name}: every chat it lists is indexed.")  # fmt: skip
            self._typing.start()  # what is searched for now finds them too
        except HostError as exc:
            self._say(f"{name}'s chats could not be indexed: {exc}")
        except asyncio.CancelledError:
            self._say(f"Stopped indexing {name}'s chats.")
        finally:
            self._indexing = None
            self.changed.emit()

    @Slot()
    def stopIndexing(self) -> None:
        if self._indexing is not None:
            self._indexing.cancel()

    def _say(self, words: str) -> None:
        self._index_words = words
        self.changed.emit()

    def _agent_name(self, agent_id: str) -> str:
        choices = self._agents.choices() if self._agents is not None else []
        return next((c.name for c in choices if c.agent_id == agent_id), agent_id)

    def _index_choices(self) -> list[dict[str, str]]:
        choices = self._agents.choices() if self._agents is not None else []
        return [{"id": c.agent_id, "name": c.name} for c in choices]

    indexing = Property(bool, lambda self: self._indexing is not None, notify=changed)
    indexProgress = Property(str, lambda self: self._index_words, notify=changed)
    indexChoices = variant_property("QVariantList", lambda self: self._index_choices(), notify=changed)

    # --- Settings' Search: the index's size and its bound -----------------------------------------------
    @Slot()
    def readSize(self) -> None:
        self._ops.run(self._host.size(), "Could not read the search index", done=self._show_size)

    def _show_size(self, size: IndexSize) -> None:
        self._size = size_words(size)
        self.changed.emit()

    @Slot(int)
    def setIndexLimit(self, megabytes: int) -> None:
        if self._settings is not None and megabytes != self._settings.search_index_megabytes():
            self._ops.run(self._settings.save_search_index_megabytes(megabytes), "Could not save the size",
                          done=self._limit_saved)  # fmt: skip

    def _limit_saved(self, problem: str) -> None:
        self._limit_problem = problem
        self.changed.emit()
        self.readSize()

    indexSize = Property(str, lambda self: self._size, notify=changed)
    indexLimit = Property(
        int, lambda self: self._settings.search_index_megabytes() if self._settings else 0, notify=changed
    )
    indexLimitProblem = Property(str, lambda self: self._limit_problem, notify=changed)

    @Slot(str)
    def setQuery(self, query: str) -> None:
        if query == self._query:
            return
        self._query = query
        self.changed.emit()
        self._typing.start()

    @Slot(str, str)
    def setFilter(self, name: str, value: str) -> None:
        if name in FILTERS and self._filters[name] != value:
            self._filters[name] = value
            self.changed.emit()
            self._typing.start()

    @Slot(QColor)
    def setMarkColour(self, colour: QColor) -> None:
        """The colour the words found are marked on (the theme's)."""
        name = colour.name()
        if name != self._mark:
            self._mark = name
            self._show(self._hits)

    @Slot()
    def _search(self) -> None:
        self._asked += 1
        asked = self._asked
        if not self._query.strip():
            self._busy = False
            self._hits, self._rows, self._summary = [], [], ""
            self.resultsChanged.emit()
            return
        f = self._filters
        filters = filters_of(f["agent"], f["folder"], f["kind"], f["when"], time.time())
        self._busy = True
        self.resultsChanged.emit()
        self._ops.run(
            self._host.search(self._query, filters, LIMIT),
            "Could not search your chats",
            done=lambda hits: self._answered(asked, hits),
            after=lambda: self._done(asked),
        )

    def _done(self, asked: int) -> None:
        if asked == self._asked:
            self._busy = False
            self.resultsChanged.emit()

    def _answered(self, asked: int, hits: list[Hit]) -> None:
        if asked == self._asked:
            self._show(hits)

    def _show(self, hits: list[Hit]) -> None:
        self._hits = hits
        groups = grouped(hits, self._mark, datetime.now())
        rows: list[dict[str, Any]] = []
        for group in groups:
            rows.append({"type": "chat", **{k: v for k, v in group.items() if k != "hits"}})
            rows += [{"type": "hit", "key": group["key"], **hit} for hit in group["hits"]]
        self._rows = rows
        self._summary = summary(len(hits), len(groups), LIMIT) if self._query.strip() else ""
        self.resultsChanged.emit()

    @Slot(str, str, str)
    def openHit(self, key: str, needle: str, item: str = "") -> None:
        """Show the chat `key` at the word `needle`: found in it as find in the chat finds (Ctrl+F)."""
        self.setOpen(False)
        if key == self._session.sessionKey:
            self._find_word(needle, item)
        elif self._agent_gone(key):
            self.readHit(key, needle, item)
        else:
            self._pending = (key, needle, item)
            self._session.openSession(key)

    def _read_unopenable(self, key: str) -> None:
        """A chat its agent cannot open again (no `session/load`, no longer running), from a hit or the
        sidebar alike: the index's copy, at the hit's word when a hit asked for it."""
        pending, self._pending = self._pending, None
        needle, item = pending[1:] if pending is not None and pending[0] == key else ("", "")
        self._read_from_index(key, needle, item, CANNOT_OPEN)

    def _agent_gone(self, key: str) -> bool:
        if self._agents is None:
            return False
        return self._agents.agent_of(key) not in {choice.agent_id for choice in self._agents.choices()}

    @Slot(str, str, str)
    def readHit(self, key: str, needle: str, item: str = "") -> None:
        """Show the chat read-only as the index keeps it, at the word (nothing of it reaches an agent)."""
        self.setOpen(False)
        self._read_from_index(
            key, needle, item, ": its agent is not one of yours now" if self._agent_gone(key) else ""
        )

    def _read_from_index(self, key: str, needle: str, item: str, why: str) -> None:
        self._ops.run(self._read(key), "Could not read that chat from the search index",
                      done=lambda read: self._show_read(key, needle, item, read, why))  # fmt: skip

    async def _read(self, key: str) -> tuple[IndexedChat, Timeline] | None:
        indexed = await self._host.indexed_chat(key)
        return (indexed, await asyncio.to_thread(index_timeline, indexed)) if indexed is not None else None

    def _show_read(
        self, key: str, needle: str, item: str, read: tuple[IndexedChat, Timeline] | None, why: str
    ) -> None:
        if read is None:
            words = "The search index keeps nothing of that chat any more."
            if why == CANNOT_OPEN:
                words = "Its agent cannot open that chat again, and the search index keeps nothing of it."
            self._ops.notices.show(words, topic="search")
            return
        indexed, timeline = read
        note = f"A chat with {indexed.chat.agent or 'an agent'}, from the search index{why}"
        self._session.show_trace(timeline, indexed.chat.title or "Untitled chat", note, indexed.chat.agent)
        self._find_word(needle, item)

    def _on_shown(self, _result: object) -> None:
        pending, self._pending = self._pending, None
        if pending is not None and pending[0] == self._session.sessionKey:
            self._find_word(pending[1], pending[2])

    def _find_word(self, needle: str, item: str = "") -> None:
        """Find in the chat on the word, at its match in the hit's own item: the one the index names
        (its id), else the one saying the words around it (ids may differ once an agent replays it)."""
        if not needle:
            return
        context = next((row["context"] for row in self._rows if row.get("item") == item and item), "")

        def wanted(timeline_item: Item) -> bool:
            said = [text for _field, text in searchable(timeline_item)]
            return is_indexed_as(timeline_item, item) or says(said, context)

        self._find.find_in(needle, wanted)
