"""The host API object the renderer is given (contract: `HostApi`): the agent hub for the agents and
their sessions (one chat service per agent) and the main-side services for files, attachments, the
composer's files, links, the local stores, signing in to the agent, what is wrong with the user's own
files (config, stores), and the user's own terminals.
Built by the app's entry points (`app/gui.py`) and by tests; the renderer never builds any of these."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.main.core import paths
from app.main.core.problems import LocalProblems
from app.main.desktop.notifications import DesktopNotifications
from app.main.files.attachment_service import AttachmentService
from app.main.files.composer import ComposerFiles
from app.main.files.exports import ChatExports
from app.main.files.links import LinkPolicy
from app.main.host.parts import InspectorOfCurrent, SignInOfShown
from app.main.participation.access import TerminalAccess
from app.main.participation.service import TerminalParticipation
from app.main.proposals.service import ProposalService
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from app.main.stores.agent_settings import AgentSettings
from app.main.stores.local import JsonStringMap, LocalStores
from app.main.stores.settings_file import SettingsFile
from app.main.terminals.user import UserTerminals


@dataclass(frozen=True)
class Host:
    sessions: AgentHub
    files: Any  # the file changes of each chat, kept by its agent's service
    attachments: AttachmentService
    composer: ComposerFiles
    links: LinkPolicy
    stores: LocalStores
    sign_in: SignInOfShown
    problems: LocalProblems
    terminals: UserTerminals
    terminal_access: TerminalAccess
    proposals: ProposalService
    settings: SettingsFile
    agents: AgentHub
    agent_settings: AgentSettings
    exports: ChatExports
    inspector: InspectorOfCurrent
    notifications: DesktopNotifications

    async def shutdown(self) -> None:
        """The app quits, one way for every entry point: the desktop's notifications are let go, the
        agents stop (their sessions closed, their children reaped), then the user's shells end."""
        await self.notifications.close()
        await self.sessions.shutdown()
        await self.terminals.shutdown()


def make_host(
    service: ChatService | AgentHub,
    data_dir: Path | None = None,
    problems: LocalProblems | None = None,
    terminal_tools_port: int | None = None,
    settings: SettingsFile | None = None,
    agent_settings: AgentSettings | None = None,
) -> Host:
    """Everything around the agents' chat services (one service alone is one agent); `data_dir`
    overrides where the local stores live; `problems` holds what was wrong with the user's files
    before (the config), the stores add theirs."""
    problems = LocalProblems() if problems is None else problems
    hub = service if isinstance(service, AgentHub) else AgentHub.single(service)
    stores = LocalStores(data_dir, problems)
    hub.remember_in(JsonStringMap("chat-agents.json", data_dir, problems, "the agents of your chats"))
    first = hub.current_service  # made now (its child starts later): its folder is the default one
    terminals = UserTerminals(first.default_cwd, hub.session_workspace)
    proposals = ProposalService(terminals, hub.emit, hub.turn_is_current)
    participation = TerminalParticipation(
        terminals,
        hub.label_of,  # the agent of the chat whose tools act, on the panel's banner
        data_dir if data_dir is not None else paths.data_dir(),
        configured_port=terminal_tools_port,
        proposals=proposals,  # the tool door to the same proposal pipeline
    )
    settings = settings if settings is not None else SettingsFile(paths.config_file())
    if agent_settings is None:
        agent_settings = AgentSettings(settings, offered=hub.choice_names, on_added=hub.add_profile)
    hub.attach(participation, proposals)  # the one late binding: the hub was built before them
    return Host(
        sessions=hub,
        files=hub.files,
        attachments=AttachmentService(hub.session_workspace),
        composer=ComposerFiles(),
        links=LinkPolicy(),
        stores=stores,
        sign_in=SignInOfShown(hub),
        problems=problems,
        terminals=terminals,
        proposals=proposals,
        settings=settings,
        terminal_access=TerminalAccess(participation, first.connection.command.argv, lambda: hub.agent_info),
        agents=hub,
        agent_settings=agent_settings,
        exports=ChatExports(),
        inspector=InspectorOfCurrent(hub),
        notifications=DesktopNotifications(),
    )
