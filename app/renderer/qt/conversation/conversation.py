"""What the user does with the conversation itself: the question directory (and jumping to a question),
the earlier prompts the composer walks with Up/Down, copying a turn, a terminal or a code block, and
opening a link as the main side's link policy decides: at once, after the user confirmed the real
target it shows (`pendingLink`), or not at all (the notice says why)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, QTimer, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication

from app.contract.host_api import LinkPolicy
from app.contract.links import LinkDecision
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.timeline.items import ToolCall
from app.renderer.timeline.markdown_export import turn_markdown
from app.renderer.timeline.questions import Question, directory_key, question_directory
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.turn_view import copy_text, earlier_prompt

QUESTIONS_DEBOUNCE_MS = 250


class Conversation(ChatPart):
    questionsChanged = Signal()
    directoryOpenChanged = Signal()
    pendingLinkChanged = Signal()
    scrollToRow = Signal(int)  # a view row

    def __init__(
        self, session: CurrentSession, links: LinkPolicy, ops: Operations, parent: QObject | None = None
    ) -> None:
        super().__init__(session, ops, parent)
        self._links = links
        self._questions: list[Question] = []
        self._open_directories: set[str] = set()  # sessions whose question directory is open
        self._pending: LinkDecision | None = None  # a link waiting for the user's confirmation
        self.open_external = QDesktopServices.openUrl  # tests replace it: nothing opens on their machine
        self._hidden = 0
        self._questions_key: tuple[tuple[str, int], ...] | None = None  # what the directory was made of
        self._questions_of: Timeline | None = None  # and in which timeline
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(QUESTIONS_DEBOUNCE_MS)
        self._timer.timeout.connect(self.refresh_questions)
        session.shown.connect(self.refresh_questions)
        session.shown.connect(self.directoryOpenChanged)  # each chat keeps its own open state
        session.rowsChanged.connect(self._timer.start)

    # --- the question directory -------------------------------------------------------------------
    def refresh_questions(self) -> None:
        timeline = self._session.timeline
        key = directory_key(timeline.items, timeline.grouping) if timeline is not None else None
        if key == self._questions_key and self._questions_of is timeline:
            return
        self._questions_key, self._questions_of = key, timeline
        if timeline is None:
            self._questions, self._hidden = [], 0
        else:
            directory = question_directory(timeline.items, timeline.grouping)
            self._questions, self._hidden = list(directory.entries), directory.hidden
        self.questionsChanged.emit()

    def _entries(self) -> list[dict[str, Any]]:
        return [{"title": q.title, "number": q.number, "text": q.text} for q in self._questions]

    @Slot(bool)
    def setDirectoryOpen(self, open_: bool) -> None:
        """Open or close the shown chat's question directory (remembered per chat for this run)."""
        key = self._session.sessionKey
        if not key or (key in self._open_directories) == open_:
            return
        if open_:
            self._open_directories.add(key)
        else:
            self._open_directories.discard(key)
        self.directoryOpenChanged.emit()

    def _directory_open(self) -> bool:
        return bool(self._session.sessionKey) and self._session.sessionKey in self._open_directories

    @Slot(int)
    def goToQuestion(self, number: int) -> None:
        """Scroll to question `number` (1-based); a question no longer shown does nothing."""
        question = next((q for q in self._questions if q.number == number), None)
        model = self._session.model
        model.flush()
        row = model.view_row_of_key(question.anchor) if question is not None else -1
        if row >= 0:
            self.scrollToRow.emit(row)

    questions = variant_property("QVariantList", _entries, notify=questionsChanged)
    directoryOpen = Property(bool, _directory_open, notify=directoryOpenChanged)
    questionsHidden = Property(int, lambda self: self._hidden, notify=questionsChanged)

    # --- copying and links ---------------------------------------------------------------------------
    @Slot(str)
    def copyText(self, text: str) -> None:
        QGuiApplication.clipboard().setText(text)

    @Slot(int)
    def copyTurn(self, view_row: int) -> None:
        """The assistant prose of the turn the row at `view_row` belongs to."""
        timeline = self._session.timeline
        row = self._session.model.row_at(view_row)
        group = timeline.grouping.group_of_row(row) if timeline is not None and row is not None else None
        if group is not None:
            self.copyText(copy_text(timeline.items, group))  # type: ignore[union-attr]

    @Slot(int, result=str)
    def earlierPrompt(self, back: int) -> str:
        """For Up/Down in an empty composer: the chat's `back`-th prompt from the newest ("" past the
        oldest). Which one is shown is the composer's state (QML)."""
        timeline = self._session.timeline
        if timeline is None or back < 0:
            return ""
        return earlier_prompt(timeline.items, timeline.grouping.groups, back)

    @Slot(int)
    def copyTurnMarkdown(self, view_row: int) -> None:
        """The whole turn the row at `view_row` belongs to as Markdown: prose, thoughts, tools with
        their output fenced, attachments as links (what an export writes for it)."""
        timeline = self._session.timeline
        row = self._session.model.row_at(view_row)
        group = timeline.grouping.group_of_row(row) if timeline is not None and row is not None else None
        if group is not None:
            self.copyText(turn_markdown(timeline.items, group))  # type: ignore[union-attr]

    @Slot(str)
    def copyTerminal(self, tool_id: str) -> None:
        """Every line of a tool's terminal (or its ```console block), not just the rows shown."""
        timeline = self._session.timeline
        tool = timeline.items.get(tool_id) if timeline is not None else None
        if isinstance(tool, ToolCall):
            self.copyText(self._session.model.views.presenter.terminal_text(tool))

    @Slot(str)
    def openLink(self, url: str) -> None:
        decision = self._links.decide(url)
        if decision.action == "refuse":
            self._ops.notices.show(f"Not opened: {decision.reason}.")
        elif decision.action == "confirm":
            self._pending = decision
            self.pendingLinkChanged.emit()
        else:
            self.open_external(QUrl(decision.url))

    @Slot()
    def confirmLink(self) -> None:
        """The user read the real target and chose to open it."""
        decision, self._pending = self._pending, None
        self.pendingLinkChanged.emit()
        if decision is not None:
            self.open_external(QUrl(decision.url))

    @Slot()
    def cancelLink(self) -> None:
        if self._pending is not None:
            self._pending = None
            self.pendingLinkChanged.emit()

    def _pending_entry(self) -> dict[str, Any]:
        decision = self._pending
        return {"shown": decision.shown, "reason": decision.reason} if decision is not None else {}

    pendingLink = variant_property("QVariantMap", _pending_entry, notify=pendingLinkChanged)
