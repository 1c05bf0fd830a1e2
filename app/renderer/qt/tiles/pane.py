"""One chat on screen and the objects that show it: the session, its list model, its header, its
composer's turn and queue, find in the chat, its questions and proposal cards, its file changes, review
and checkpoints. The window's main chat is one pane; every tile beside it is another, each bound to the
same window-wide parts (settings, icons, attachments, rules). QML sees a pane's objects under the names
the main chat's have (`context()`), so one Conversation and one Composer serve every pane."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject

from app.contract.host_api import HostApi
from app.renderer.present.presenter import ATTACHMENT_KINDS, Presenter
from app.renderer.qt.agents.picker import AgentPicker
from app.renderer.qt.agents.status import AgentStatus
from app.renderer.qt.cards.attachments import AttachmentController
from app.renderer.qt.cards.diffs import DiffRenderer
from app.renderer.qt.cards.file_changes import FileChanges
from app.renderer.qt.cards.proposals import ProposalCards
from app.renderer.qt.common.icons import Icons
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.whole_text import WholeText
from app.renderer.qt.composer.attachments import ComposerAttachments
from app.renderer.qt.composer.queue import MessageQueue
from app.renderer.qt.composer.turn import TurnController
from app.renderer.qt.conversation.conversation import Conversation
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.qt.conversation.row_objects import RowObjects
from app.renderer.qt.conversation.row_views import RowViews
from app.renderer.qt.conversation.schedulers import ConversationScheduler
from app.renderer.qt.conversation.search import ConversationSearch
from app.renderer.qt.conversation.timeline_model import TimelineModel
from app.renderer.qt.conversation.view_memory import ViewMemory
from app.renderer.qt.elicitation.answers import QuestionAnswers
from app.renderer.qt.review.branching import Branching
from app.renderer.qt.review.checkpoints import Checkpoints
from app.renderer.qt.review.review_pane import ReviewPane
from app.renderer.qt.rules.rules_view import PermissionRulesView
from app.renderer.qt.sessions.session_header import SessionHeader
from app.renderer.qt.sessions.session_list import SessionList
from app.renderer.qt.settings.app_settings import AppSettings
from app.renderer.qt.terminals.painted_types import PaintedTypes
from app.renderer.timeline.handover import user_message_text


@dataclass(frozen=True)
class WindowParts:
    """What every pane of a window shares."""

    host: HostApi
    app: AppSettings
    ops: Operations  # the window's: its tasks, its notice bar
    attachments: AttachmentController
    icons: Icons
    whole_text: WholeText
    painted_types: PaintedTypes
    diffs: DiffRenderer
    rules: PermissionRulesView


class _Decorations:
    """What rows look up in other views (the RowDecorations protocol)."""

    def __init__(self, attachments: AttachmentController, files: FileChanges) -> None:
        self._attachments = attachments
        self._files = files

    def attachment_cards(self, attachments: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return self._attachments.attachment_cards(attachments)

    def inline_images(self, uris: list[str]) -> list[dict[str, Any]]:
        return self._attachments.inline_images(uris)

    def files_changed(self, turn_id: str) -> list[dict[str, Any]]:
        return self._files.files_changed(turn_id)

    def outside_files(self, turn_id: str) -> list[dict[str, Any]]:
        return self._files.outside_files(turn_id)


class ChatPane(QObject):
    """Made in two steps: the session and its model first (the window's chat list and agent picker
    are bound to the main pane's session), then what needs those lists (`bind`)."""

    def __init__(
        self,
        parts: WindowParts,
        parent: QObject | None = None,
        *,
        remembers_window: bool = True,
        ops: Operations | None = None,
    ) -> None:
        """`remembers_window`: the window's main chat (reopened at start); `ops`: a tile's own, whose
        notices are said in the tile (the main chat's are the window's)."""
        super().__init__(parent)
        self.ops = ops = ops if ops is not None else parts.ops
        host = parts.host
        sessions_host = host.sessions
        self.parts = parts
        self._remembers_window = remembers_window
        self.files = FileChanges(host.files, sessions_host, ops, self)
        self.review = ReviewPane(
            host.files,
            sessions_host,
            ops,
            lambda: self.session.sessionKey,
            lambda text: self.turn.send_aside(text),
            self,
            asked=self._asked,
        )
        self.checkpoints = Checkpoints(host.files, ops, lambda: self.session.sessionKey, self)
        views = RowViews(Presenter(), _Decorations(parts.attachments, self.files), self)
        self.model = TimelineModel(views, self)
        self.scheduler = ConversationScheduler(self.model, self)
        self.session = CurrentSession(sessions_host, self.model, ops, self, agents=host.agents)
        self.composer_files = ComposerAttachments(host.composer, self.session, ops, self)

    def bind(self, sessions: SessionList, agents: AgentPicker) -> None:
        parts, ops = self.parts, self.ops
        host = parts.host
        sessions_host = host.sessions
        self.header = SessionHeader(sessions_host, self.session, sessions, ops, self)
        self.agent = AgentStatus(sessions_host, self.session, ops, self)
        self.branching = Branching(
            host.branches,
            self.session,
            host.stores.drafts,
            ops,
            title=lambda: self.header.title,
            agent_label=lambda: sessions_host.agent_label,
            agent_names=agents.names,
            parent=self,
        )
        self.queue = MessageQueue(host.stores.queues, self)
        self.turn = TurnController(
            sessions_host, host.stores.drafts, self.session, self.composer_files, ops, self.queue, self
        )
        self.conversation = Conversation(self.session, host.links, ops, self)
        self.view_memory = ViewMemory(
            host.stores.views, self.session, self.model, self, remembers_window=self._remembers_window
        )
        self.search = ConversationSearch(self.session, self.model, self)
        self.proposal_cards = ProposalCards(host, sessions_host, self.session, ops, self)
        self.questions = QuestionAnswers(sessions_host, self.session, ops, self)
        self.row_objects = RowObjects(self._row_named(), self)
        self.session.shown.connect(self.files.on_shown)
        self.session.shown.connect(lambda _result: self.review.close())  # a footer's turn is its chat's
        self.turn.messageSent.connect(sessions.message_sent)
        self.turn.turnEnded.connect(lambda _reason: self.branching.refresh())  # a transcript went
        self.turn.draftChanged.connect(sessions.changed)  # a chat left with a draft is listed
        parts.attachments.statesChanged.connect(
            lambda: self.model.refresh(
                lambda row: row.kind in ATTACHMENT_KINDS or row.kind == "assistant-text"
            )
        )
        self.files.changed.connect(
            lambda _turn: self.model.refresh(lambda row: row.kind in ("turn-footer", "user"))
        )
        parts.app.darkChanged.connect(self._on_dark)

    def _asked(self, message_id: str) -> str:
        """The user's message that started a turn, in the chat shown (the review's turn headings)."""
        timeline = self.session.timeline
        return user_message_text(timeline, message_id) if timeline is not None else ""

    def _on_dark(self) -> None:
        """Code blocks already shown are highlighted again for the new theme."""
        if self.model.views.presenter.set_dark(self.parts.app.dark):
            self.model.refresh(lambda row: row.kind in ("assistant-text", "user"), rebuild=True)

    def _row_named(self) -> dict[str, QObject]:
        parts = self.parts
        return {
            "app": parts.app,
            "icons": parts.icons,
            "timeline": self.model,
            "agent": self.agent,
            "attachments": parts.attachments,
            "conversation": self.conversation,
            "fileChanges": self.files,
            "review": self.review,
            "checkpoints": self.checkpoints,
            "branching": self.branching,
            "turn": self.turn,
            "search": self.search,
            "wholeText": parts.whole_text,
            "paintedTypes": parts.painted_types,
            "diffs": parts.diffs,
            "proposalCards": self.proposal_cards,
            "questions": self.questions,
            "rules": parts.rules,
            "terminals": self.scheduler,
        }

    def context(self) -> dict[str, QObject]:
        """The pane's objects by the context property names QML reads them under."""
        return {
            **self._row_named(),
            "session": self.session,
            "sessionHeader": self.header,
            "queue": self.queue,
            "viewState": self.view_memory,
            "composerFiles": self.composer_files,
            "notices": self.ops.notices,
            "rowObjects": self.row_objects,
        }

    def after_frame(self) -> None:
        self.scheduler.after_frame()
        self.search.after_frame()

    def stash(self) -> None:
        """Quitting: the draft and the view's place are written now."""
        self.turn.stash_draft()
        self.view_memory.flush()
