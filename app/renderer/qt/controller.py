"""The object QML talks to: session, composer, header and sidebar state as properties, user actions as
slots. It calls the host API (ChatService) on the qasync loop and feeds envelopes into the timeline
store and the list model. It decides nothing about security: links and files go to app/main."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
import uuid
from pathlib import Path
from typing import Any

from PySide6.QtCore import Property, QObject, QTimer, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication

from app.contract.envelopes import AgentStateEnvelope, LoadResult, SessionSummary
from app.contract.errors import HostError
from app.main.attachment_service import AttachmentService
from app.main.chat_service import ChatService
from app.main.links import external_link_refusal
from app.main.local_store import JsonStringMap, draft_store, session_names, session_previews
from app.main.prompt_blocks import PromptAttachment
from app.renderer.presenter import turn_copy_text
from app.renderer.qt.attachments import AttachmentController
from app.renderer.qt.composer_attachments import ComposerAttachments
from app.renderer.qt.keyed_list_model import KeyedListModel
from app.renderer.qt.timeline_model import TimelineModel
from app.renderer.terminal_view import TerminalEmulator
from app.renderer.timeline.heartbeat import is_heartbeat_only
from app.renderer.timeline.items import ToolCall
from app.renderer.timeline.parts import Attachment, AttachmentPart
from app.renderer.timeline.questions import question_directory
from app.renderer.timeline.rows import MetadataChanged
from app.renderer.timeline.store import TimelineStore
from app.renderer.timeline.turn_view import item_text

log = logging.getLogger(__name__)
NEW_CHAT_DRAFT = "__new_chat__"


def _prop(type_: Any, name: str, notify: str) -> Any:
    return Property(type_, lambda self: getattr(self, name), notify=notify)


def settle_heap() -> None:
    """Move what a load built (a long history is millions of objects) out of the collector's sight.
    Python's full collections walk every tracked object: with a 2,000-turn history each one was a
    ~300 ms freeze in the middle of streaming. Young garbage is collected first; cyclic garbage already
    old is left (a small, bounded cost against a visible stall)."""
    gc.collect(1)
    gc.freeze()


class ChatController(QObject):
    terminalAdvanced = Signal(str)  # relayed from the model: the painted terminal screens listen
    agentChanged = Signal()
    sessionChanged = Signal()
    busyChanged = Signal()
    draftChanged = Signal()
    sessionsChanged = Signal()
    questionsChanged = Signal()
    noticeChanged = Signal()
    bannerChanged = Signal()
    metaChanged = Signal()
    turnEnded = Signal(str)  # stop reason, for tests and the self-test
    scrollToRow = Signal(int)

    def __init__(self, service: ChatService, *, reduced_motion: bool = False, parent: QObject | None = None):
        super().__init__(parent)
        self.service = service
        self.store = TimelineStore()
        self.model = TimelineModel(self)
        self.model.terminalAdvanced.connect(self.terminalAdvanced)
        self.session_model = KeyedListModel("key", self)
        self.attachments = AttachmentController(
            AttachmentService(service.session_workspace), self._spawn, parent=self
        )
        self.attachments.statesChanged.connect(self.model.refresh_attachments)
        self.model.attachment_states = self.attachments.decorate
        self.model.image_states = self.attachments.inline_images
        self.model.file_changes = self._file_changes_for
        self._diffs: dict[tuple[str, str], tuple[str, str]] = {}  # (turn, path) -> (content, its diff)
        self.composer_files = ComposerAttachments(
            self._spawn, lambda text: self._set_notice(text), self._current_cwd, parent=self
        )
        self.sessionsChanged.connect(lambda: self.session_model.apply(self.sessions))
        self.drafts: JsonStringMap = draft_store()
        self.names: JsonStringMap = session_names()
        self.previews: JsonStringMap = session_previews()
        self._agent_label = service.connection.label
        self._agent_state = "idle"
        self._agent_message = ""
        self._session_key = ""
        self._busy = False
        self._draft = self.drafts.get(NEW_CHAT_DRAFT)
        self._notice = ""
        self._notice_retry = ""
        self._banner: dict[str, Any] = {}
        self._listed: list[SessionSummary] = []
        self._local_keys: list[str] = []
        self._next_cursor: str | None = None
        self._unseen: set[str] = set()
        self._questions: list[dict[str, Any]] = []
        self._questions_hidden = 0
        self._modes: dict[str, Any] = {}
        self._config: list[dict[str, Any]] = []
        self._reduced_motion = reduced_motion
        self._no_reply = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(400)
        self._draft_timer.timeout.connect(self._save_draft)
        self._clock = QTimer(self)  # ticks only while a turn runs ("8 s elapsed")
        self._clock.setInterval(1000)
        self._clock.timeout.connect(self._tick)
        self._questions_timer = QTimer(self)
        self._questions_timer.setSingleShot(True)
        self._questions_timer.setInterval(250)
        self._questions_timer.timeout.connect(self._refresh_questions)
        service.subscribe(self._on_envelope)

    # --- plumbing ------------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            log.error("UI action failed: %s", exc, exc_info=exc)
            self._set_notice(f"Something went wrong: {exc}")

    @property
    def timeline(self):
        return self.store.timelines.get(self._session_key)

    def _set_notice(self, text: str, retry: str = "") -> None:
        self._notice, self._notice_retry = text, retry
        self.noticeChanged.emit()

    # --- envelopes -----------------------------------------------------------------------------
    def _on_envelope(self, envelope: Any) -> None:
        kind = envelope.kind
        if kind == "agent_state":
            self._on_agent_state(envelope)
            return
        if kind in ("diagnostic", "file_changes"):
            return
        timeline, changes = self.store.apply(envelope)
        if timeline is not None and timeline.session_key == self._session_key:
            if kind == "session_update":
                self._track_live_item(timeline)
            self.model.push(changes)
            self._questions_timer.start() if changes else None
            fields = {c.field for c in changes if isinstance(c, MetadataChanged)}
            if fields:
                if "mode" in fields and self._modes and timeline.meta.mode:
                    self._modes = {**self._modes, "currentModeId": timeline.meta.mode}
                if "config_options" in fields:
                    self._config = list(timeline.meta.config_options)
                self.metaChanged.emit()
                self.sessionsChanged.emit()
        elif kind == "prompt_settled" and envelope.session_key != self._session_key:
            self._unseen.add(envelope.session_key)
            self.sessionsChanged.emit()

    def _track_live_item(self, timeline: Any) -> None:
        """The last assistant segment or thought of a running turn is the one that streams."""
        if not self._busy or not timeline.order:
            self.model.live_item = None
            return
        self.model.live_item = timeline.order[-1]

    def _on_agent_state(self, envelope: AgentStateEnvelope) -> None:
        self._agent_label = envelope.agent_label
        self._agent_state = envelope.state
        self._agent_message = envelope.message
        if envelope.state == "exited" or envelope.state == "failed":
            self._banner = {
                "exitCode": envelope.exit_code if envelope.exit_code is not None else -1,
                "stderr": envelope.stderr_tail,
                "message": envelope.message,
            }
            self.bannerChanged.emit()
        self.agentChanged.emit()

    # --- startup and sessions ------------------------------------------------------------------
    @Slot()
    def start(self) -> None:
        self._spawn(self._start())

    async def _start(self) -> None:
        try:
            await self.service.start()
        except HostError as exc:
            self._set_notice(str(exc))
            return
        await self._new_chat()
        await self._refresh_sessions()

    async def _refresh_sessions(self, more: bool = False) -> None:
        info = self.service.agent_info
        if info is None or not info.supports("sessionCapabilities", "list"):
            return
        try:
            page = await self.service.list_sessions(self._next_cursor if more else None)
        except HostError as exc:
            log.warning("session/list failed: %s", exc)
            return
        if more:
            known = {s.session_key for s in self._listed}
            self._listed.extend(s for s in page.sessions if s.session_key not in known)
        else:
            self._listed = list(page.sessions)
        self._next_cursor = page.next_cursor
        self.sessionsChanged.emit()

    @Slot()
    def loadMoreSessions(self) -> None:
        if self._next_cursor:
            self._spawn(self._refresh_sessions(more=True))

    def _show(self, result: LoadResult) -> None:
        self._stash_draft()
        timeline, _ = self.store.load(result)
        self._session_key = result.session_key
        if result.modes is not None or not result.resumed_live:
            self._modes = result.modes or {}
            self._config = list(result.config_options)
        self._busy = self.service.is_live(result.session_key)
        self.model.live_item = timeline.order[-1] if self._busy and timeline.order else None
        self.attachments.set_session(result.session_key, result.generation)
        self.model.set_timeline(timeline)
        settle_heap()
        self._unseen.discard(result.session_key)
        if result.session_key not in self._local_keys and result.created:
            self._local_keys.insert(0, result.session_key)
        self._draft = self.drafts.get(result.session_key)
        self._no_reply = False
        if not self.previews.get(result.session_key):
            first = next(
                (
                    timeline.items[i]
                    for i in timeline.order
                    if i in timeline.grouping.group_of and timeline.grouping.group_of[i].kind == "user"
                ),
                None,
            )
            text = item_text(first).strip() if first is not None else ""
            if text:
                self.previews.set(result.session_key, text[:200])
        self._refresh_questions()
        for signal in (
            self.sessionChanged,
            self.busyChanged,
            self.draftChanged,
            self.sessionsChanged,
            self.metaChanged,
        ):
            signal.emit()
        self._clock.start() if self._busy else self._clock.stop()

    @Slot()
    def newChat(self) -> None:
        self._spawn(self._new_chat())

    async def _new_chat(self) -> None:
        try:
            result = await self.service.new_session()
        except HostError as exc:
            self._set_notice(f"Could not start a new chat: {exc}")
            return
        pending_draft = self.drafts.get(NEW_CHAT_DRAFT) if not self._session_key else ""
        self._show(result)
        if pending_draft and not self._draft:
            self.drafts.move(NEW_CHAT_DRAFT, result.session_key)
            self._draft = pending_draft
            self.draftChanged.emit()

    @Slot(str)
    def openSession(self, key: str) -> None:
        if key and key != self._session_key:
            self._spawn(self._open(key))

    async def _open(self, key: str) -> None:
        try:
            result = await self.service.activate_session(key)
        except HostError as exc:
            self._set_notice(f"Could not open that session: {exc}")
            await self._new_chat()  # a load failure leaves an empty, usable chat
            return
        self._set_notice("")
        self._show(result)

    @Slot(str, str)
    def renameSession(self, key: str, title: str) -> None:
        self.names.set(key, title.strip())
        self.sessionsChanged.emit()

    @Slot(str)
    def deleteSession(self, key: str) -> None:
        self._spawn(self._end(key, delete=True))

    @Slot(str)
    def closeSession(self, key: str) -> None:
        self._spawn(self._end(key, delete=False))

    async def _end(self, key: str, delete: bool) -> None:
        try:
            await (self.service.delete_session(key) if delete else self.service.close_session(key))
        except HostError as exc:
            self._set_notice(str(exc))
            return
        self._listed = [s for s in self._listed if s.session_key != key]
        self._local_keys = [k for k in self._local_keys if k != key]
        self.store.forget(key)
        if key == self._session_key:
            self._session_key = ""
            await self._new_chat()
        self.sessionsChanged.emit()

    # --- prompts -------------------------------------------------------------------------------
    @Slot(str)
    def send(self, text: str) -> None:
        """Show the user's message at once (optimistic, with its attachments), then send it."""
        if self._busy or (not text.strip() and not self.composer_files.count):
            return
        key = self._session_key
        timeline = self.timeline
        if not key or timeline is None:
            self._set_notice("No chat is open yet: the agent is still starting.")
            return
        message_id = f"user:{uuid.uuid4()}"
        attachments, chips = self.composer_files.take()
        if not self.previews.get(key) and text.strip():
            self.previews.set(key, text.strip()[:200])
            self.metaChanged.emit()
        parts = [
            AttachmentPart(
                Attachment(name=chip["name"], uri=Path(chip["path"]).as_uri(), mime_type=chip["mime"])
            )
            for chip in chips
        ]
        self.model.push(timeline.add_optimistic(message_id, text, parts, sent_at=time.monotonic()))
        self.model.flush()  # in the model now, not a frame later
        self.model.live_message_id = message_id
        self._set_busy(True)
        self._draft = ""
        self.drafts.set(key, "")
        self.draftChanged.emit()
        self._no_reply = False
        self._set_notice("")
        self._refresh_questions()
        self._spawn(self._send(key, text, message_id, attachments, chips))

    async def _send(
        self,
        key: str,
        text: str,
        message_id: str,
        attachments: tuple[PromptAttachment, ...] = (),
        chips: list[dict[str, Any]] | None = None,
    ) -> None:
        try:
            result = await self.service.prompt(key, text, attachments, client_message_id=message_id)
        except HostError as exc:
            self._set_busy(False, key)
            timeline = self.store.timelines.get(key)
            arrived = timeline is not None and timeline.optimistic.get(message_id) in timeline.items
            what = "The agent stopped before finishing its reply" if arrived else "Your message was not sent"
            if not arrived and chips:
                self.composer_files.restore(chips)  # nothing the user attached is lost
            self._set_notice(f"{what}: {exc}", retry=text)
            self.turnEnded.emit("error")
            return
        self._set_busy(False, key)
        if result.stop_reason == "end_turn" and self._turn_is_empty(key, message_id):
            self._no_reply = True
            self.noticeChanged.emit()
        self.turnEnded.emit(result.stop_reason)

    def _current_cwd(self) -> str | None:
        timeline = self.timeline
        if timeline is None:
            return None
        return self.service.session_workspace(timeline.session_key, timeline.generation)

    def _turn_is_empty(self, key: str, message_id: str) -> bool:
        timeline = self.store.timelines.get(key)
        if timeline is None:
            return False
        segment_id = timeline.optimistic.get(message_id)
        return bool(timeline.order) and timeline.order[-1] == segment_id

    def _set_busy(self, busy: bool, key: str | None = None) -> None:
        if key is not None and key != self._session_key:
            return
        self._busy = busy
        if not busy:
            self.model.live_item = None
            self.model.flush()
            self.model.refresh_last_turn(("assistant-text", "thought", "turn-footer"))
            self.model.live_message_id = None
            self._clock.stop()
        else:
            self._clock.start()
        self.busyChanged.emit()
        self.sessionsChanged.emit()

    def _tick(self) -> None:
        self.model.refresh_last_turn(("turn-footer",))

    @Slot()
    def stop(self) -> None:
        if self._busy:
            self._spawn(self.service.cancel(self._session_key))

    @Slot()
    def retry(self) -> None:
        text = self._notice_retry
        if text:
            self._set_notice("")
            self.send(text)

    @Slot(str, str)
    def answerPermission(self, request_id: str, option_id: str) -> None:
        self.service.answer_permission(request_id, option_id or None)

    @Slot(str)
    def setMode(self, mode_id: str) -> None:
        self._spawn(self._call(self.service.set_mode(self._session_key, mode_id)))

    @Slot(str, "QVariant")
    def setConfigOption(self, config_id: str, value: Any) -> None:
        async def change() -> None:
            options = await self.service.set_config_option(self._session_key, config_id, value)
            if options:
                self._config = list(options)
                self.metaChanged.emit()

        self._spawn(self._call(change()))

    async def _call(self, coro: Any) -> None:
        try:
            await coro
        except HostError as exc:
            self._set_notice(str(exc))

    @Slot()
    def reconnect(self) -> None:
        self._spawn(self._reconnect())

    async def _reconnect(self) -> None:
        key = self.service.last_active_key or self._session_key
        self._banner = {}
        self.bannerChanged.emit()
        try:
            await self.service.start()
            result = await (
                self.service.load_session(key)
                if key and self.service.agent_info and self.service.agent_info.supports("loadSession")
                else self.service.new_session()
            )
        except HostError as exc:
            self._set_notice(f"Reconnect failed: {exc}")
            return
        self._show(result)

    # --- composer ------------------------------------------------------------------------------
    @Slot(str)
    def setDraft(self, text: str) -> None:
        if text != self._draft:
            self._draft = text
            self._draft_timer.start()

    def _stash_draft(self) -> None:
        if self._draft_timer.isActive():
            self._draft_timer.stop()
            self._save_draft()

    def _save_draft(self) -> None:
        self.drafts.set(self._session_key or NEW_CHAT_DRAFT, self._draft)

    # --- clipboard and links -------------------------------------------------------------------
    @Slot(str)
    def copyText(self, text: str) -> None:
        QGuiApplication.clipboard().setText(text)

    @Slot(str)
    def copyTurn(self, group_id: str) -> None:
        timeline = self.timeline
        if timeline is not None:
            self.copyText(turn_copy_text(timeline, group_id))

    # --- files the agent changed ---------------------------------------------------------------------
    def _file_changes_for(self, message_id: str) -> list[dict[str, Any]]:
        """The "files changed" of a turn: each file with its diff against what the agent last read."""
        if not message_id or not self._session_key:
            return []
        return [
            {"path": change.path, "name": change.name, "created": change.created, "diff": change.diff}
            for change in self.service.files.changes(self._session_key, message_id)
        ]

    @Slot(str, str)
    def revertFile(self, message_id: str, path: str) -> None:
        """Undo the agent's write (refused, with the reason shown, if the file changed since)."""
        try:
            self.service.files.revert(self._session_key, message_id, path)
        except HostError as exc:
            self._set_notice(f"Not reverted: {exc}")
        self.model.refresh_rows(lambda row: row.kind == "turn-footer")

    @Slot(str)
    def copyTerminal(self, tool_id: str) -> None:
        """Every line of a tool's terminal (or its ```console block), not just the rows shown."""
        timeline = self.timeline
        tool = timeline.items.get(tool_id) if timeline is not None else None
        if isinstance(tool, ToolCall):
            self.copyText(self.model.presenter.terminal_text(tool))

    def terminal_emulator(self, terminal_id: str) -> TerminalEmulator | None:
        """For the painted terminal screens: the emulator the presenter feeds."""
        return self.model.presenter.emulator(terminal_id)

    @Slot(str)
    def openLink(self, url: str) -> None:
        refusal = external_link_refusal(url)
        if refusal is not None:
            self._set_notice(f"Not opened: {refusal}.")
            return
        QDesktopServices.openUrl(QUrl(url))

    # --- question directory --------------------------------------------------------------------
    def _refresh_questions(self) -> None:
        timeline = self.timeline
        if timeline is None:
            self._questions, self._questions_hidden = [], 0
        else:
            directory = question_directory(timeline.items, timeline.grouping)
            self._questions = [
                {"title": q.title, "anchor": str(q.anchor), "number": q.number} for q in directory.entries
            ]
            self._questions_hidden = directory.hidden
        self.questionsChanged.emit()

    @Slot(str)
    def goToQuestion(self, anchor: str) -> None:
        self.model.flush()
        row = self.model.indexOfKey(anchor)
        if row >= 0:  # a missing anchor does nothing
            self.scrollToRow.emit(row)

    # --- properties ----------------------------------------------------------------------------
    agentLabel = _prop(str, "_agent_label", notify=agentChanged)
    agentMessage = _prop(str, "_agent_message", notify=agentChanged)
    sessionKey = _prop(str, "_session_key", notify=sessionChanged)
    busy = _prop(bool, "_busy", notify=busyChanged)
    draft = _prop(str, "_draft", notify=draftChanged)
    notice = _prop(str, "_notice", notify=noticeChanged)
    canRetry = Property(bool, lambda self: bool(self._notice_retry), notify=noticeChanged)
    noReply = _prop(bool, "_no_reply", notify=noticeChanged)
    banner = _prop("QVariantMap", "_banner", notify=bannerChanged)
    reducedMotion = _prop(bool, "_reduced_motion", notify=agentChanged)
    questions = _prop("QVariantList", "_questions", notify=questionsChanged)
    questionsHidden = _prop(int, "_questions_hidden", notify=questionsChanged)
    timelineModel = Property(QObject, lambda self: self.model, constant=True)

    @Property(str, notify=agentChanged)
    def agentState(self) -> str:
        if self._agent_state == "ready" and self._busy:
            return "working"
        return self._agent_state

    @Property(str, notify=metaChanged)
    def sessionTitle(self) -> str:
        timeline = self.timeline
        key = self._session_key
        meta_title = timeline.meta.title if timeline and timeline.meta.title else None
        return (
            self.names.get(key)
            or (meta_title if meta_title != key else None)
            or (self.previews.get(key)[:80] if self.previews.get(key) else None)
            or "New chat"
        )

    @Property("QVariantList", notify=metaChanged)
    def modes(self) -> list[dict[str, Any]]:
        available = self._modes.get("availableModes") if isinstance(self._modes, dict) else None
        return [
            {"id": str(m.get("id")), "name": str(m.get("name") or m.get("id"))}
            for m in available or []
            if isinstance(m, dict)
        ]

    @Property(str, notify=metaChanged)
    def currentMode(self) -> str:
        return str(self._modes.get("currentModeId") or "") if isinstance(self._modes, dict) else ""

    @Property("QVariantList", notify=metaChanged)
    def configOptions(self) -> list[dict[str, Any]]:
        result = []
        for option in self._config:
            choices = option.get("options") if isinstance(option.get("options"), list) else []
            flat = []
            for choice in choices:
                if isinstance(choice, dict) and "value" in choice:
                    flat.append(
                        {"value": str(choice["value"]), "name": str(choice.get("name") or choice["value"])}
                    )
                elif isinstance(choice, dict) and isinstance(choice.get("options"), list):  # grouped
                    flat.extend(
                        {"value": str(c.get("value")), "name": str(c.get("name") or c.get("value"))}
                        for c in choice["options"]
                        if isinstance(c, dict)
                    )
            result.append(
                {
                    "id": str(option.get("id", "")),
                    "name": str(option.get("name") or option.get("id")),
                    "type": str(option.get("type") or "select"),
                    "category": str(option.get("category") or ""),
                    "currentValue": option.get("currentValue"),
                    "choices": flat,
                }
            )
        result.sort(key=lambda o: o["category"] != "model")
        return result

    @Property("QVariantMap", notify=metaChanged)
    def usage(self) -> dict[str, Any]:
        timeline = self.timeline
        usage = timeline.meta.usage if timeline is not None else None
        if not usage:
            return {}
        used, size = usage.get("used"), usage.get("size")
        cost = usage.get("cost") if isinstance(usage.get("cost"), dict) else None
        text = f"{used:,} / {size:,}" if isinstance(used, int) and isinstance(size, int) else ""
        if cost and isinstance(cost.get("amount"), int | float):
            text += f" \u00b7 {cost['amount']:.2f} {cost.get('currency', '')}".rstrip()
        fraction = used / size if isinstance(used, int) and isinstance(size, int) and size > 0 else 0.0
        return {"text": text, "fraction": min(1.0, max(0.0, fraction))}

    @Property("QVariantList", notify=metaChanged)
    def commands(self) -> list[dict[str, str]]:
        timeline = self.timeline
        if timeline is None:
            return []
        result = []
        for command in timeline.meta.commands:
            name = command.get("name")
            if isinstance(name, str) and name:
                command_input = command.get("input") if isinstance(command.get("input"), dict) else {}
                result.append(
                    {
                        "name": name,
                        "description": str(command.get("description") or ""),
                        "hint": str(command_input.get("hint") or ""),
                    }
                )
        return result

    @Property(QObject, constant=True)
    def sessionModel(self) -> KeyedListModel:
        return self.session_model

    @Property("QVariantList", notify=sessionsChanged)
    def sessions(self) -> list[dict[str, Any]]:
        seen: set[str] = set()
        entries = []
        listed = {s.session_key: s for s in self._listed}
        for key in [*self._local_keys, *listed]:
            if key in seen:
                continue
            seen.add(key)
            summary = listed.get(key)
            preview = self.previews.get(key)
            evidence = {
                "sessionId": key,
                "title": summary.title if summary else None,
                "_meta": summary.meta if summary else {},
                "preview": preview,
            }
            if key != self._session_key and is_heartbeat_only(evidence):
                continue
            timeline = self.store.timelines.get(key)
            meta_title = timeline.meta.title if timeline and timeline.meta.title else None
            listed_title = summary.title if summary else None
            title = (
                self.names.get(key)
                or (meta_title if meta_title != key else None)
                or (listed_title if listed_title != key else None)
                or (preview[:80] if preview else None)
                or "New chat"
            )
            entries.append(
                {
                    "key": key,
                    "title": title,
                    "live": self.service.is_live(key),
                    "unseen": key in self._unseen,
                    "current": key == self._session_key,
                }
            )
        return entries

    @Property(bool, notify=sessionsChanged)
    def hasMoreSessions(self) -> bool:
        return self._next_cursor is not None

    @Property("QVariantMap", notify=agentChanged)
    def capabilities(self) -> dict[str, bool]:
        info = self.service.agent_info
        if info is None:
            return {"close": False, "delete": False}
        return {
            "close": info.supports("sessionCapabilities", "close"),
            "delete": info.supports("sessionCapabilities", "delete"),
        }

    async def shutdown(self) -> None:
        self._stash_draft()
        for task in list(self._tasks):
            task.cancel()
        await self.service.shutdown()
