"""The host API object the renderer is given (contract: `HostApi`): the agent hub for the agents and
their sessions (one chat service per agent) and the main-side services for files, attachments, the
composer's files, links, the local stores, signing in to the agent, what is wrong with the user's own
files (config, stores), and the user's own terminals.
Built by the app's entry points (`app/gui.py`) and by tests; the renderer never builds any of these."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from app.contract.local_stores import StringStore
from app.contract.rules import RulesChangedEnvelope
from app.main.agents.installs import Installs
from app.main.agents.registry import REGISTRY_URL, Registry
from app.main.core import paths
from app.main.core.problems import LocalProblems
from app.main.desktop.notifications import DesktopNotifications
from app.main.doctor.host_part import Doctor
from app.main.files.attachment_service import AttachmentService
from app.main.files.composer import ComposerFiles
from app.main.files.exports import ChatExports
from app.main.files.links import LinkPolicy
from app.main.host.parts import InspectorOfCurrent, SignInOfShown
from app.main.mcp_servers.host_part import McpServersOfUser
from app.main.mcp_servers.servers import UserMcpServers
from app.main.participation.access import TerminalAccess
from app.main.participation.service import TerminalParticipation
from app.main.proposals.service import ProposalService
from app.main.rules.book import PermissionRules
from app.main.rules.host_part import RulesOfUser
from app.main.search.host_part import MEGABYTE, ChatSearch
from app.main.sessions.branching import ChatBranches
from app.main.sessions.extras import HubPorts, ShareMaker
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from app.main.stores.agent_settings import AgentSettings
from app.main.stores.local import JsonStringMap, LocalStores
from app.main.stores.project_grants import ProjectTrust
from app.main.stores.projects import Projects
from app.main.stores.settings_file import SettingsFile
from app.main.stores.view_state import ViewStates
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
    branches: ChatBranches
    exports: ChatExports
    inspector: InspectorOfCurrent
    notifications: DesktopNotifications
    rules: RulesOfUser
    mcp_servers: McpServersOfUser
    search: ChatSearch
    doctor: Doctor

    async def shutdown(self) -> None:
        """The app quits, one way for every entry point: the desktop's notifications are let go, the
        agents stop (their sessions closed, their children reaped), then the user's shells end, and
        what the search index still had to write is written."""
        await self.notifications.close()
        await self.sessions.shutdown()
        await self.terminals.shutdown()
        await self.search.close()


class HubParts(TypedDict):
    share: ShareMaker
    remembered: StringStore
    branches: StringStore


@dataclass(frozen=True)
class AgentsShare:
    """What every agent of the host's hub shares (a `SharedParts`): the user's terminals, the
    terminal-action proposals and the terminal participation whose tools reach both."""

    terminals: UserTerminals
    proposals: ProposalService
    participation: TerminalParticipation
    rules: PermissionRules
    mcp_servers: UserMcpServers


def hub_parts(
    data_dir: Path | None = None,
    problems: LocalProblems | None = None,
    terminal_tools_port: int | None = None,
) -> HubParts:
    """What an `AgentHub` is made with to be a host's (`AgentHub(..., **hub_parts(...))`): the memory
    of the chats' agents in the data folder, and the parts every agent shares, which the hub makes as
    it is made (each built on what it may ask of the hub, `HubPorts`)."""

    def share(ports: HubPorts) -> AgentsShare:
        terminals = UserTerminals(ports.workspace, ports.session_workspace)
        proposals = ProposalService(terminals, ports.emit, ports.turn_is_current)
        participation = TerminalParticipation(
            terminals,
            ports.label_of,  # the agent of the chat whose tools act, on the panel's banner
            data_dir if data_dir is not None else paths.data_dir(),
            configured_port=terminal_tools_port,
            proposals=proposals,  # the tool door to the same proposal pipeline
        )
        rules = PermissionRules(data_dir, problems)  # every agent's, in the data folder
        rules.listeners.append(lambda: ports.emit(RulesChangedEnvelope()))
        servers = UserMcpServers(data_dir, problems)  # the user's own, given to every agent
        return AgentsShare(terminals, proposals, participation, rules, servers)

    problems = LocalProblems() if problems is None else problems
    return HubParts(
        share=share,
        remembered=JsonStringMap("chat-agents.json", data_dir, problems, "the agents of your chats"),
        branches=JsonStringMap("chat-branches.json", data_dir, problems, "which chat continues which"),
    )


def own_connection(hub: AgentHub, agent_id: str, purpose: str) -> ChatService:
    """A connection of an agent's own, apart from the window's chats: a second child process with its
    own log (`agent-<id>-<purpose>-stderr.log`), no trace recorder, nothing shared."""
    profile = hub.profiles[agent_id]
    log_path = paths.log_dir() / f"agent-{agent_id}-{purpose}-stderr.log"
    return ChatService(profile.command(), cwd=hub.default_cwd or profile.cwd, log_path=log_path)


def search_reader(hub: AgentHub) -> Callable[[str], tuple[ChatService, str]]:
    """A connection of an agent's own for indexing its chats."""

    def reader(agent_id: str) -> tuple[ChatService, str]:
        name = next(
            (c.name for c in hub.choices() if c.agent_id == agent_id), hub.profiles[agent_id].name
        )  # as chats say it
        return own_connection(hub, agent_id, "search"), name

    return reader


def make_host(
    agents: ChatService | AgentHub,
    data_dir: Path | None = None,
    problems: LocalProblems | None = None,
    terminal_tools_port: int | None = None,
    settings: SettingsFile | None = None,
    agent_settings: AgentSettings | None = None,
    views: ViewStates | None = None,
) -> Host:
    """Everything around the agents' chat services: one service alone is one agent (its hub made
    here), a hub of several is made with `hub_parts` by the caller; `data_dir` overrides where the
    local stores live; `problems` holds what was wrong with the user's files before (the config), the
    stores add theirs."""
    problems = LocalProblems() if problems is None else problems
    if isinstance(agents, AgentHub):
        hub = agents
    else:
        hub = AgentHub.single(agents, **hub_parts(data_dir, problems, terminal_tools_port))
    shared = hub.shared
    if not isinstance(shared, AgentsShare):
        raise ValueError("the agent hub has no shared parts: make it with hub_parts()")
    trust = ProjectTrust(data_dir, problems)  # the project files whose folders and servers the user trusted
    hub.projects = Projects(problems, trust=trust)  # a project settings file that cannot be used is said
    stores = LocalStores(data_dir, problems, views=views)  # the window's placement may be read already
    first = hub.current_service  # its folder is the terminals' root; its command the access bar's
    settings = settings if settings is not None else SettingsFile(paths.config_file())
    if agent_settings is None:
        agent_settings = AgentSettings(settings, offered=hub.choice_names, on_added=hub.add_profile)
    if getattr(agent_settings, "catalog", "") is None:
        url = os.environ.get("CLAWQT_REGISTRY_URL") or REGISTRY_URL  # another registry (a test's, a mirror)
        agent_settings.catalog = Registry(data_dir or paths.data_dir(), url)
    if getattr(agent_settings, "installs", "") is None:
        agent_settings.installs = Installs(data_dir or paths.data_dir())
    if agent_settings.installs is not None and agent_settings.installs.on_installed is None:
        agent_settings.installs.on_installed = hub.add_profile  # offered at once
    terminals, proposals, participation = shared.terminals, shared.proposals, shared.participation
    megabytes = settings.search_index_megabytes()
    search = ChatSearch(
        problems,
        hub.label_of,
        hub.session_workspace,
        max_bytes=megabytes * MEGABYTE,
        reader=search_reader(hub),
    )
    settings.on_search_size = lambda megabytes: search.set_max_bytes(megabytes * MEGABYTE)
    hub.subscribe(search.feed.on_envelope)  # every agent's chats, live and loaded
    hub.opened_chats.subscribe(search.feed.on_opened)
    hub.deleted_chats.subscribe(search.feed.on_deleted)
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
        branches=hub.branches,
        exports=ChatExports(),
        inspector=InspectorOfCurrent(hub),
        doctor=Doctor(hub, lambda agent_id: own_connection(hub, agent_id, "doctor")),
        notifications=DesktopNotifications(),
        rules=RulesOfUser(shared.rules),
        mcp_servers=McpServersOfUser(shared.mcp_servers),
        search=search,
    )
