"""The host API object the renderer is given (contract: `HostApi`): the chat service for sessions and
the main-side services for files, attachments, the composer's files, links, the local stores,
signing in to the agent, what is wrong with the user's own files (config, stores), and the user's
own terminals.
Built by the app's entry points (`app/gui.py`) and by tests; the renderer never builds any of these."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.main import paths
from app.main.attachment_service import AttachmentService
from app.main.chat_service import ChatService
from app.main.composer_files import ComposerFiles
from app.main.file_host import AgentFileHost
from app.main.links import LinkPolicy
from app.main.local_problems import LocalProblems
from app.main.local_store import LocalStores
from app.main.proposals import ProposalService
from app.main.settings_file import SettingsFile
from app.main.sign_in import SignInService
from app.main.terminal_access import TerminalAccess
from app.main.terminal_participation import TerminalParticipation
from app.main.user_terminals import UserTerminals


@dataclass(frozen=True)
class Host:
    sessions: ChatService
    files: AgentFileHost
    attachments: AttachmentService
    composer: ComposerFiles
    links: LinkPolicy
    stores: LocalStores
    sign_in: SignInService
    problems: LocalProblems
    terminals: UserTerminals
    terminal_access: TerminalAccess
    proposals: ProposalService
    settings: SettingsFile


def make_host(
    service: ChatService,
    data_dir: Path | None = None,
    problems: LocalProblems | None = None,
    terminal_tools_port: int | None = None,
    settings: SettingsFile | None = None,
) -> Host:
    """Everything around one chat service; `data_dir` overrides where the local stores live;
    `problems` holds what was wrong with the user's files before (the config), the stores add theirs."""
    problems = LocalProblems() if problems is None else problems
    terminals = UserTerminals(service.default_cwd, service.session_workspace)
    participation = TerminalParticipation(
        terminals,
        lambda: service.agent_label,
        data_dir if data_dir is not None else paths.data_dir(),
        configured_port=terminal_tools_port,
    )
    service.participation = participation
    proposals = ProposalService(
        terminals,
        service._emit,
        lambda key, generation, turn: _turn_is_current(service, key, generation, turn),
    )
    service.proposals = proposals
    participation.tools.proposals = proposals  # the tool door to the same proposal pipeline
    return Host(
        sessions=service,
        files=service.files,
        attachments=AttachmentService(service.session_workspace),
        composer=ComposerFiles(),
        links=LinkPolicy(),
        stores=LocalStores(data_dir, problems),
        sign_in=service.sign_in,
        problems=problems,
        terminals=terminals,
        proposals=proposals,
        settings=settings if settings is not None else SettingsFile(paths.config_file()),
        terminal_access=TerminalAccess(
            participation, service.connection.command.argv, lambda: service.agent_info
        ),
    )


def _turn_is_current(service: ChatService, session_key: str, generation: int, turn_id: str) -> bool:
    """Whether the prompt `turn_id` of `session_key` at `generation` is still the chat's live turn."""
    live = service.machine.live.get(session_key)
    return live is not None and live.generation == generation and live.client_message_id == turn_id
