"""The QObjects one chat window binds to, built from the host API it is given and wired together. Wiring
only: each object's behaviour (and its tests) lives in its own module.

QML sees them as context properties (`context()`): `session` (the shown session), `sessions` (the
sidebar), `agent` (the agent's state and banner), `sessionHeader` (the session's title, modes, options,
usage, commands), `turn` (the composer's draft, send and stop), `notices`, `conversation` (questions,
copy, links), `search` (find in the chat), `searchAll` (search every chat), `chatExport` (the chat as a
Markdown file), `inspector` (the protocol inspector), `timeline` (the list model), `terminals` (the
painted screens' source), `paintedTypes` (the painted screen's QML type, made on first use),
`fileChanges`, `attachments`, `composerFiles`, `icons`, `diffs` (diff rendering), `signIn`,
`userTerminals` (the terminal panel), `terminalAccess` (how the agent reaches the terminals),
`proposalCards` (the proposal cards' confirm, cancel and keyboard position), `questions` (the agent's
questions: typed values, Send, Decline), `rules` (the user's permission rules and their decisions),
`mcpServers` (the user's MCP servers), `inbox` (what waits for the user in every chat), `usage` (the
usage ledger and the daily budget) and `app` (settings)."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, Slot

from app.contract.host_api import HostApi
from app.renderer.present.warm_up import warm_up
from app.renderer.qt.agents.picker import AgentPicker
from app.renderer.qt.agents.registry_view import AgentRegistryView
from app.renderer.qt.agents.settings import AgentSettingsView
from app.renderer.qt.agents.sign_in import SignIn
from app.renderer.qt.cards.attachments import AttachmentController
from app.renderer.qt.cards.diffs import DiffRenderer
from app.renderer.qt.common.icons import Icons
from app.renderer.qt.common.notices import Notices
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.tasks import TaskRunner
from app.renderer.qt.common.whole_text import WholeText
from app.renderer.qt.conversation.export import ChatExport
from app.renderer.qt.doctor.doctor_view import DoctorView
from app.renderer.qt.inbox.inbox import Inbox
from app.renderer.qt.inspector.inspector import InspectorModel
from app.renderer.qt.inspector.trace_view import TraceViewer
from app.renderer.qt.mcp_servers.servers_view import McpServersView
from app.renderer.qt.rules.rules_view import PermissionRulesView
from app.renderer.qt.search.search_all import SearchAll
from app.renderer.qt.sessions.attention import Attention
from app.renderer.qt.sessions.session_list import SessionList
from app.renderer.qt.settings.app_settings import AppSettings
from app.renderer.qt.settings.dialog import SettingsView
from app.renderer.qt.terminals.access import TerminalAccess
from app.renderer.qt.terminals.painted_types import PaintedTypes
from app.renderer.qt.terminals.panel import UserTerminalsView
from app.renderer.qt.tiles.pane import ChatPane, WindowParts
from app.renderer.qt.tiles.tiles import Tiles
from app.renderer.qt.usage.usage_view import UsageView


class ChatObjects(QObject):
    def __init__(
        self,
        host: HostApi,
        *,
        parent: QObject | None = None,
        app: AppSettings | None = None,
    ) -> None:
        """`app`: the window's settings in effect, made by the window before the host (its start frame
        is drawn with them: main_window.py); objects made without a window get the default look."""
        super().__init__(parent)
        sessions_host = host.sessions
        self.host = host
        if app is None:
            notify = bool(host.settings.notifications().get("desktop", True))
            app = AppSettings(False, parent=self, notify=notify)
        self.app = app
        self.icons = Icons(self)
        self.painted_types = PaintedTypes(self)
        self.whole_text = WholeText(self)
        self.diffs = DiffRenderer(self)
        self.tasks = TaskRunner(self)
        self.notices = Notices(self)
        self.tasks.failed.connect(self.notices.show)
        self.ops = Operations(self.tasks, self.notices)
        self.attachments = AttachmentController(host.attachments, self.ops, self)
        self.rules = PermissionRulesView(host.rules, sessions_host, self.ops, self)
        self.parts = WindowParts(
            host,
            app,
            self.ops,
            self.attachments,
            self.icons,
            self.whole_text,
            self.painted_types,
            self.diffs,
            self.rules,
        )
        self.main = main = ChatPane(self.parts, self)  # the main chat; tiles are panes beside it
        self.files, self.review, self.checkpoints = main.files, main.review, main.checkpoints
        self.model, self.scheduler, self.session = main.model, main.scheduler, main.session
        self.composer_files = main.composer_files
        self.agents = AgentPicker(host.agents, sessions_host, self.session, self.ops, self)
        self.sessions = SessionList(
            sessions_host,
            host.stores,
            self.session,
            self.ops,
            self,
            agents=self.agents,
            branch_of=self._branch_of,
        )
        self.agents.changed.connect(self.sessions.changed)  # the rows' agent marks
        main.bind(self.sessions, self.agents)
        self.agent, self.header, self.branching = main.agent, main.header, main.branching
        self.queue, self.turn, self.conversation = main.queue, main.turn, main.conversation
        self.view_memory, self.search = main.view_memory, main.search
        self.proposal_cards, self.questions, self.row_objects = (
            main.proposal_cards,
            main.questions,
            main.row_objects,
        )
        self.attention = Attention(
            sessions_host,
            self.sessions.title_of,
            self,
            lambda: self.app.notify,
            desktop=host.notifications,
            ops=self.ops,
        )
        self.attention.openRequested.connect(self._open_notified)
        self.inbox = Inbox(
            sessions_host, self.session, self.sessions.title_of, self.ops, self, proposals=host.proposals
        )
        self.usage = UsageView(host.search, host.settings, sessions_host, self.ops, self)
        self.attention.answered.connect(self.inbox.answer_from_notification)
        self.sessions.setGroupBy(self.view_memory.sidebar_groups)  # as the user left the sidebar
        self.sessions.groupingChanged.connect(self.view_memory.set_sidebar_groups)
        self.inspector = InspectorModel(host.inspector, self.ops, self)
        self.trace_view = TraceViewer(host.inspector, self.session, self.ops, self)
        self.export = ChatExport(
            host.exports,
            self.session,
            lambda: self.header.title,
            self.ops,
            self,
            self.files.files_changed,
            origin=self.branching.origin_words,
        )
        self.mcp_servers = McpServersView(host.mcp_servers, host.agents, sessions_host, self.ops, self)
        self.search_all = SearchAll(
            host.search, self.session, self.search, self.ops, self, agents=host.agents, settings=host.settings
        )
        self.attachments.linkClicked.connect(self.conversation.openLink)
        self.sign_in = SignIn(host.sign_in, sessions_host, self.session, self.ops, self)
        self.user_terminals = UserTerminalsView(host.terminals, self.session, self.ops, self)
        self.terminal_access = TerminalAccess(host.terminal_access, self.ops, self)
        self.settings = SettingsView(host.settings, self.app, self.ops, self)
        self.agent_settings = AgentSettingsView(host.agent_settings, self.ops, self)
        self.agent_registry = AgentRegistryView(host.agent_settings, self.ops, self)
        self.doctor = DoctorView(host.doctor, self.ops, self, current=lambda: host.agents.current)
        self.tiles = Tiles(
            self.parts,
            main,
            self.sessions,
            self.agents,
            self,
            shown=(self.sessions.chat_shown, self.inbox.chat_shown),
        )
        self.session.started.connect(lambda: self.tiles.restore(self.view_memory.tile_chats))
        self.inbox.on_screen = self.sessions.on_screen = lambda key: self.tiles.showing(key) is not None
        self.agent.changed.connect(self.terminal_access.refresh)  # which agent runs decides the way in
        self.session.shown.connect(self.attachments.on_shown)
        self.notices.show_problems(host.problems.reported())  # found at startup: shown as the window opens
        self._stop_problems = host.problems.subscribe(lambda problem: self.notices.show_problems([problem]))

    def _branch_of(self, key: str) -> str:
        origin = self.host.branches.origin(key)
        return (origin.source_title or "another chat") if origin is not None else ""

    def _open_notified(self, key: str) -> None:
        """A notification was clicked: its chat is shown (the window brings itself up: gui.py)."""
        if key != self.session.sessionKey:
            self.session.openSession(key)

    def context(self) -> dict[str, QObject]:
        """What QML binds to, by context property name: Main.qml and the panels read these; the
        conversation's rows and cards are handed theirs (`rowObjects`)."""
        return {**self._named(), "rowObjects": self.row_objects}

    def _named(self) -> dict[str, QObject]:
        return {
            "app": self.app,
            "icons": self.icons,
            "paintedTypes": self.painted_types,
            "wholeText": self.whole_text,
            "diffs": self.diffs,
            "signIn": self.sign_in,
            "session": self.session,
            "sessions": self.sessions,
            "agent": self.agent,
            "sessionHeader": self.header,
            "turn": self.turn,
            "queue": self.queue,
            "viewState": self.view_memory,
            "traceView": self.trace_view,
            "notices": self.notices,
            "conversation": self.conversation,
            "search": self.search,
            "searchAll": self.search_all,
            "inbox": self.inbox,
            "usage": self.usage,
            "chatExport": self.export,
            "inspector": self.inspector,
            "timeline": self.model,
            "terminals": self.scheduler,
            "fileChanges": self.files,
            "review": self.review,
            "checkpoints": self.checkpoints,
            "branching": self.branching,
            "attachments": self.attachments,
            "composerFiles": self.composer_files,
            "userTerminals": self.user_terminals,
            "terminalAccess": self.terminal_access,
            "proposalCards": self.proposal_cards,
            "questions": self.questions,
            "rules": self.rules,
            "mcpServers": self.mcp_servers,
            "settings": self.settings,
            "agentSettings": self.agent_settings,
            "agentRegistry": self.agent_registry,
            "doctor": self.doctor,
            "agents": self.agents,
            "tiles": self.tiles,
            "tilePane": self.main,  # the main chat's pane (each tile's context names its own)
        }

    @Slot()
    def after_frame(self) -> None:
        """The window drew a frame: deferred work for what it showed (reveal, terminals, attachments)."""
        self.main.after_frame()
        self.tiles.after_frame()
        self.attachments.after_frame()

    def start(self) -> None:
        self.session.start(reopen=self.view_memory.open_chat)
        self.tasks.spawn(asyncio.to_thread(warm_up))  # the first reply's parsers, made while it is idle

    async def shutdown(self) -> None:
        self.main.stash()
        self.tiles.stash()
        self.user_terminals.shutdown()
        self._stop_problems()
        self.tasks.close()
        await self.host.shutdown()
