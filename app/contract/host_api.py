"""The host API: every call the renderer makes of the main side, as Protocols.

The renderer is given one `HostApi` object and works through it; it builds no main-side object itself and
imports nothing else from `app/main` (tests/unit/architecture/test_layering.py). Each part is a Protocol
of its own so a renderer object takes only the part it needs. Calls that touch files or the agent run on
the main side, which decides every rule (confinement, staleness, what a link may open); errors are
`HostError`s with a stable `code` (`app/contract/errors.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypedDict, Unpack

from app.contract.agents import AgentChoice, AgentTarget
from app.contract.attachments import CheckedFile, Preview, PromptAttachment, Resolution
from app.contract.branches import BranchesHost
from app.contract.doctor import DoctorHost
from app.contract.elicitation import QuestionAction
from app.contract.envelopes import (
    AgentInfo,
    Envelope,
    LoadResult,
    PromptResult,
    SessionPage,
)
from app.contract.links import LinkDecision
from app.contract.local_stores import LocalStores, ProblemsHost
from app.contract.mcp_servers import McpServersHost
from app.contract.notifications import NotificationsHost
from app.contract.protocol_log import InspectorPage, ReadTrace
from app.contract.review_host import FileChangesHost
from app.contract.rules import PermissionRulesHost
from app.contract.search import SearchHost
from app.contract.settings_hosts import AgentSettingsHost, SettingsHost
from app.contract.sign_in import SignInEnvelope
from app.contract.terminal_hosts import ProposalsHost, TerminalAccessHost, UserTerminalsHost

EnvelopeListener = Callable[[Envelope], None]


class PromptOptions(TypedDict, total=False):
    """What a prompt may carry besides its chat and text, declared once for every door it passes
    through (this API, the hub, each agent's chat service)."""

    attachments: tuple[PromptAttachment, ...]
    client_message_id: str | None  # the optimistic message's id: its row settles, not a second one
    cwd: str | None  # the folder the sender believes the chat is in: refused if it is not
    context: str | None  # a hidden block for the agent only (`hidden_context.wrap`): a branch's transcript


class SessionsHost(Protocol):
    """The agent and its sessions (`app/main/sessions/service.py`). Envelopes arrive synchronously, in
    order, on the event loop thread."""

    @property
    def agent_info(self) -> AgentInfo | None: ...

    @property
    def agent_label(self) -> str: ...

    @property
    def last_active_key(self) -> str | None:
        """The session shown when the agent last exited (what Reconnect reloads)."""
        ...

    def subscribe(self, listener: EnvelopeListener) -> Callable[[], None]: ...

    async def start(self) -> AgentInfo: ...

    async def shutdown(self) -> None: ...

    async def new_session(self, cwd: str | None = None) -> LoadResult: ...

    async def load_session(self, session_key: str, cwd: str | None = None) -> LoadResult: ...

    async def activate_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        """Show a session: a live one comes back with the same generation, anything else loads."""
        ...

    async def list_sessions(self, cursor: str | None = None, cwd: str | None = None) -> SessionPage: ...

    async def close_session(self, session_key: str) -> None: ...

    async def delete_session(self, session_key: str) -> None: ...

    def is_live(self, session_key: str) -> bool: ...

    def label_of(self, session_key: str) -> str:
        """The name of the agent a chat is with."""
        ...

    def shown_elsewhere(self, session_key: str) -> bool:
        """Its agent runs and has another of its chats open for prompts (an agent has one at a time;
        its chats running a turn go on): a prompt to this one needs it opened again first."""
        ...

    def session_workspace(self, session_key: str, generation: int) -> str | None:
        """The session's folder while it is open at exactly `generation`, else None."""
        ...

    async def prompt(self, session_key: str, text: str, **options: Unpack[PromptOptions]) -> PromptResult: ...

    async def cancel(self, session_key: str) -> bool: ...

    def answer_permission(self, request_id: str, option_id: str | None) -> bool: ...

    def answer_question(
        self, request_id: str, action: QuestionAction, values: dict[str, Any]
    ) -> dict[str, str]:
        """Answer the agent's question; the problems by field name that keep it from going ({} sent)."""
        ...

    async def set_mode(self, session_key: str, mode_id: str) -> None: ...

    async def set_config_option(
        self, session_key: str, config_id: str, value: str | bool
    ) -> tuple[dict[str, Any], ...]: ...


class AgentsHost(Protocol):
    """The agents the user may chat with, one child process each, started on first use
    (`app/main/sessions/hub.py`). `sessions` speaks for the agent of the chat shown last."""

    def choices(self) -> list[AgentChoice]: ...

    @property
    def current(self) -> str:
        """The agent id of the chat opened last (what `sessions.agent_info` describes)."""
        ...

    @property
    def last_used(self) -> str:
        """The agent of the newest chat the user made (what Ctrl+N opens a chat with)."""
        ...

    def agent_of(self, session_key: str) -> str:
        """The agent id a chat belongs to ("" when not known)."""
        ...

    def agent_for_new_chat(self, cwd: str = "") -> str:
        """The agent a new chat starts with when the user names none: the one the folder's project
        settings (`.clawqt.json`) name, else the one used last."""
        ...

    def project_settings(self, cwd: str = "") -> dict[str, str] | None:
        """The project settings for chats in `cwd` (`file`, and `agent`, `mode`, `model` when set; the
        `folders` and `servers` it asks to grant, one a line, and `trusted` "yes"/"no" when it asks)."""
        ...

    def trust_project(self, cwd: str, trusted: bool) -> str:
        """Trust (or stop trusting) what the project of `cwd` asks to grant, as it reads now; "" when
        done, else why not. Chats opened from then on get (or no longer get) them."""
        ...

    async def new_session_with(self, agent_id: str, cwd: str | None = None, target: str = "") -> LoadResult:
        """A new chat with that agent (started first if it is not running); `target`: one of the agents
        behind it (`targets`), "" for its default."""
        ...

    async def targets(self, agent_id: str) -> list[AgentTarget]:
        """The agents behind a running gateway agent (OpenClaw's own) a new chat may go to; [] if none."""
        ...


class SignInHost(Protocol):
    """Signing in to the agent, driven by the main side (app/main/agents/sign_in.py); progress and the
    outcome arrive as SignInEnvelopes through `SessionsHost.subscribe`."""

    @property
    def state(self) -> SignInEnvelope | None: ...

    async def authenticate(self, method_id: str) -> bool: ...

    async def use_env(self, method_id: str, values: dict[str, str]) -> bool: ...

    async def start_terminal(self, method_id: str) -> None: ...

    def terminal_input(self, text: str) -> None: ...

    async def retry(self) -> bool: ...

    def stop_terminal(self) -> None: ...

    @property
    def can_sign_out(self) -> bool:
        """Whether the agent of the chat shown offers signing out (ACP `logout`)."""
        ...

    async def sign_out(self) -> None:
        """Sign out of the agent of the chat shown: its sign-in is offered again."""
        ...


class AttachmentsHost(Protocol):
    """Attachment references in the conversation (`app/main/files/attachment_service.py`): each call
    re-resolves the reference for exactly that session and generation (AttachmentError when refused or
    stale)."""

    def label(self, reference: str, name: str | None = None) -> str:
        """A name safe to show for a reference not resolved yet (its given name, else its basename)."""
        ...

    async def resolve(self, session_key: str, generation: int, reference: str) -> Resolution: ...

    async def preview(self, session_key: str, generation: int, reference: str) -> Preview:
        """What the preview panel shows, read because the user asked (a click)."""
        ...

    async def inline_image(self, session_key: str, generation: int, reference: str) -> Preview:
        """An image the agent's reply shows by itself: refused (NOT_WITHOUT_A_CLICK) for a file outside
        the workspace, which is read only by `preview` on the user's click."""
        ...

    async def thumbnail(self, session_key: str, generation: int, reference: str) -> bytes | None:
        """A small PNG of an image file inside the workspace, or None when it is not one (a file
        outside is never read without a click)."""
        ...

    async def open_target(self, session_key: str, generation: int, reference: str) -> str:
        """The URL to hand to the system right now."""
        ...

    async def choose_app(self, session_key: str, generation: int, reference: str) -> bool:
        """The desktop's application chooser for the file (True), or False: the desktop has none."""
        ...

    async def show_in_folder(self, session_key: str, generation: int, reference: str) -> bool:
        """The file manager showing the file in its folder (True), or False: there is none."""
        ...


class ComposerFilesHost(Protocol):
    """Files the user attaches to a prompt (`app/main/files/composer.py`)."""

    max_attachments: int

    def check(self, path: str) -> CheckedFile:
        """PromptRefused (saying why) when the file cannot be attached."""
        ...

    def save_pasted_image(self, png: bytes) -> str:
        """The path of the pasted image saved as a file (HostError when it cannot be written)."""
        ...

    async def thumbnail(self, path: str) -> bytes | None: ...

    def mention_candidates(self, cwd: str, query: str) -> list[str]:
        """Paths under `cwd`, relative, best matches for `query` first."""
        ...

    def mention_target(self, cwd: str, relative: str) -> str | None:
        """The file a mention names, or None when it would leave `cwd`."""
        ...


class ExportsHost(Protocol):
    """Files the user writes out of ClawQt (an exported chat), to the place they chose."""

    async def save_text(self, path: str, text: str) -> None:
        """Write `text` (UTF-8) to `path` at once or not at all (a file already there stays whole
        until the new one replaces it); SaveFailed says why in words."""
        ...


class InspectorHost(Protocol):
    """The protocol inspector's source: the current agent's JSON-RPC traffic and stderr, bounded."""

    def read(self, after: int) -> InspectorPage:
        """The entries after `after` (0: all kept) of the agent chats are with now."""
        ...

    def text(self, seq: int, pretty: bool = False) -> str:
        """One entry's line (credentials named, not shown); indented JSON when `pretty`."""
        ...

    async def save_trace(self, path: str) -> int:
        """The kept entries written as a `--record` trace; how many. SaveFailed says why not."""
        ...

    async def save_report_trace(self, path: str) -> tuple[int, str]:
        """The kept entries as a trace for a bug report, what is the user's own taken out (the rules:
        `app/main/acp/bug_trace.py`); how many, and the note of what was taken out."""
        ...

    async def open_trace(self, path: str) -> ReadTrace:
        """A trace file replayed through the session machine, off the GUI thread (nothing is sent to
        any agent). TraceUnreadable says why not."""
        ...

    def clear(self) -> None: ...

    def watch(self, watched: bool) -> None:
        """The inspector is shown (keep much) or not (keep only the last moments)."""
        ...


class LinkPolicy(Protocol):
    def decide(self, url: str) -> LinkDecision:
        """Open at once, ask first (showing the real target), or refuse (with the reason)."""
        ...


class HostApi(Protocol):
    @property
    def sessions(self) -> SessionsHost: ...

    @property
    def files(self) -> FileChangesHost: ...

    @property
    def attachments(self) -> AttachmentsHost: ...

    @property
    def composer(self) -> ComposerFilesHost: ...

    @property
    def links(self) -> LinkPolicy: ...

    @property
    def sign_in(self) -> SignInHost: ...

    @property
    def stores(self) -> LocalStores: ...

    @property
    def problems(self) -> ProblemsHost: ...

    @property
    def terminals(self) -> UserTerminalsHost: ...

    @property
    def terminal_access(self) -> TerminalAccessHost: ...

    @property
    def proposals(self) -> ProposalsHost: ...

    @property
    def settings(self) -> SettingsHost: ...

    @property
    def agents(self) -> AgentsHost: ...

    @property
    def agent_settings(self) -> AgentSettingsHost: ...

    @property
    def branches(self) -> BranchesHost: ...

    @property
    def exports(self) -> ExportsHost: ...

    @property
    def inspector(self) -> InspectorHost: ...

    @property
    def notifications(self) -> NotificationsHost: ...

    @property
    def rules(self) -> PermissionRulesHost: ...

    @property
    def mcp_servers(self) -> McpServersHost: ...

    @property
    def search(self) -> SearchHost: ...

    @property
    def doctor(self) -> DoctorHost: ...

    async def shutdown(self) -> None:
        """The app quits: everything the main side started ends (the agents, the user's shells)."""
        ...
