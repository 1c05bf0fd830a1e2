"""How agents reach the user's terminals: the loopback MCP server, per-session delivery, and the hidden
context each of the user's messages carries.

Ownership: the capabilities (`CapabilityStore`), the per-session bearers, the tools and the server live
here, beside the terminals (`UserTerminals`). The chat service asks two things of it: which MCP servers
to name in `session/new|load|resume` (agents whose `initialize` says `mcpCapabilities.http`), and the
hidden context of a prompt the user is sending now.

Authority: a capability is minted or refreshed only by `prompt_context`, which the chat service calls
when the user sends a message in that chat. The context is built at that moment (a terminal paused or
closed since the message was typed is not in it). Agents that take no per-session servers (OpenClaw)
get the context only once the user connected them (`mark_connected`): the context names tools those
agents could not otherwise call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.contract.envelopes import AgentInfo
from app.contract.hidden_context import UNTRUSTED, inert, untrusted_output, wrap
from app.main.core.json_files import parse_object
from app.main.files.atomic import replace_file
from app.main.files.regular_files import read_user_file
from app.main.participation.bearers import SessionBearers
from app.main.participation.capabilities import CapabilityStore
from app.main.participation.install_secret import InstallSecret
from app.main.participation.loopback_guard import MCP_PATH
from app.main.participation.loopback_socket import HOST, McpServerError, bind_loopback
from app.main.participation.tools import ProposalDoor, TerminalTools
from app.main.terminals.text import plain_text
from app.main.terminals.user import UserTerminals

log = logging.getLogger(__name__)

SERVER_NAME = "clawqt-terminals"
SETTINGS_FILE = "terminal-access.json"
MAX_SNAPSHOTS = 3
SNAPSHOT_BYTES = 4096
READ_ONLY_RULE = (
    "A question about a terminal is read-only intent: read it, never type into it. Type into a terminal "
    "(send_terminal_input) or open one only when the user asks you to run or type something."
)


class TerminalParticipation:
    def __init__(
        self,
        terminals: UserTerminals,
        agent_label: Callable[[str], str],
        settings_dir: Path,
        capabilities: CapabilityStore | None = None,
        configured_port: int | None = None,
        proposals: ProposalDoor | None = None,
    ) -> None:
        """`configured_port`: the user's `terminalToolsPort` (config file); taken, it is an error said in
        the panel, never silently another port."""
        self._configured_port = configured_port
        self.terminals = terminals
        self.capabilities = capabilities or CapabilityStore()
        self.bearers = SessionBearers()
        self._settings_path = settings_dir / SETTINGS_FILE
        self._settings = self._read_settings()
        self._secret = InstallSecret(self._settings)
        self.tools = TerminalTools(
            terminals,
            self.capabilities,
            agent_label,
            lambda: self.install_secret,
            self.bearers,
            proposals=proposals,
        )
        self._server: Any = None
        self._socket: socket.socket | None = None  # reserved before the server's modules load
        self._reserved_url: str | None = None
        self._starting: asyncio.Task[str | None] | None = None
        self._watching = False  # the reserved socket is watched for a first caller
        self.problem = ""  # why the server is not running, for the settings panel
        self._pending_bearers: dict[str, str] = {}

    # --- settings: the install secret and the stable port ------------------------------------------
    def _read_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = {}
        with contextlib.suppress(OSError):
            parsed = parse_object(read_user_file(self._settings_path))
            if isinstance(parsed, dict):
                settings = parsed
        if not isinstance(settings.get("port"), int) or not 0 < settings["port"] < 65536:
            settings["port"] = 0
        if not isinstance(settings.get("connected"), dict):
            settings["connected"] = {}
        return settings

    def _write_settings(self) -> None:
        try:
            replace_file(self._settings_path, json.dumps(self._settings).encode("utf-8"))
        except OSError as error:  # the server still runs; a restart may pick another port
            log.warning("could not save %s: %s", self._settings_path, error)

    @property
    def install_secret(self) -> str:
        """From the keyring where one works, else the file; read when first needed (install_secret.py)."""
        value = self._secret.value()
        if self._secret.changed:
            self._secret.changed = False
            self._write_settings()
        return value

    @property
    def url(self) -> str | None:
        """Where agents reach the tools: known once the address is reserved (connections made before
        the server runs wait in the socket's backlog); None when it cannot run."""
        if self._server is not None:
            return self._server.url
        return self._reserved_url

    @property
    def started(self) -> bool:
        """Whether the server was started (running, or its modules loading), not only its address
        reserved."""
        return self._starting is not None or self._server is not None

    def reserve(self) -> str | None:
        """Bind the address now (the saved port, else a free one) without loading the server: the URL
        can go into `session/new` at once. None when no address can be bound (`problem` says why)."""
        if self._reserved_url is not None or self._server is not None or self.problem:
            return self.url
        try:
            if self._configured_port is not None:
                self._socket = bind_loopback(self._configured_port)
            else:
                try:
                    self._socket = bind_loopback(self._settings["port"])
                except McpServerError:
                    if not self._settings["port"]:
                        raise
                    self._socket = bind_loopback(0)  # the saved port is taken: another one
        except McpServerError as error:
            self.problem = f"Terminal access for agents is off: {error}"
            return None
        self._reserved_url = f"http://{HOST}:{self._socket.getsockname()[1]}{MCP_PATH}"
        return self._reserved_url

    def connected(self, agent_name: str) -> bool:
        """Whether the user connected this agent (configured our server on its side) for this URL."""
        return self.url is not None and self._settings["connected"].get(agent_name) == self.url

    def wanted_by(self, info: AgentInfo) -> bool:
        """Whether this agent could use the server (it takes per-session servers, or the user connected
        it before): then it starts with the agent; otherwise only when the user connects one."""
        return info.supports("mcpCapabilities", "http") or info.name in self._settings["connected"]

    def mark_connected(self, agent_name: str) -> None:
        if self.url is not None:
            self._settings["connected"][agent_name] = self.url
            self._write_settings()

    def agent_config(self) -> dict[str, Any]:
        """What an agent configured once needs (OpenClaw's `mcp set`): the URL and the install secret."""
        return {
            "url": self.url,
            "transport": "streamable-http",
            "headers": {"Authorization": f"Bearer {self.install_secret}"},
        }

    # --- the server ---------------------------------------------------------------------------------
    async def start(self) -> str | None:
        """Start the loopback server once (its modules load off the GUI thread); its URL, or None when
        it cannot run (`problem` says why)."""
        return await asyncio.shield(self._begin_start())

    def _begin_start(self) -> asyncio.Task[str | None]:
        """The one start task, made on first need."""
        if self._starting is None:
            self._starting = asyncio.get_running_loop().create_task(self._start())
        return self._starting

    def start_on_first_call(self) -> None:
        """Start the server when an agent first connects to the reserved address, not before: its
        modules (the `mcp` SDK, uvicorn, starlette, pydantic) were about a third of an idle app's
        memory, and most chats never call a terminal tool. The first connection waits in the socket's
        backlog while they load off the GUI thread."""
        if self.started or self._watching or self.reserve() is None or self._socket is None:
            return

        def knocked() -> None:
            self._stop_watching()
            self._begin_start()

        asyncio.get_running_loop().add_reader(self._socket.fileno(), knocked)
        self._watching = True

    def _stop_watching(self) -> None:
        if self._watching and self._socket is not None:
            asyncio.get_running_loop().remove_reader(self._socket.fileno())
        self._watching = False

    async def _start(self) -> str | None:
        loop = asyncio.get_running_loop()
        self._stop_watching()  # started before any caller came: the server takes the socket now
        if self.reserve() is None:
            return None
        sock, self._socket = self._socket, None
        try:
            module = await loop.run_in_executor(None, _load_server_module)
            server = module.TerminalMcpServer(self.tools, loop, self.install_secret, sock=sock)
            url = await loop.run_in_executor(None, server.start)
        except Exception as error:  # ImportError, uvicorn failing: the chat works without it
            if sock is not None:
                sock.close()
            self._reserved_url = None
            self.problem = f"Terminal access for agents is off: {error}"
            log.warning("%s", self.problem)
            return None
        self._server = server
        self._reserved_url = None
        if server.port != self._settings["port"]:
            self._settings["port"] = server.port
        self._write_settings()
        return url

    async def stop(self) -> None:
        if self._starting is not None and not self._starting.done():
            await asyncio.wait([self._starting])  # a start under way ends first, then stops
        server, self._server = self._server, None
        if server is not None:
            await asyncio.get_running_loop().run_in_executor(None, server.stop)
        self._stop_watching()
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        self._reserved_url = None

    # --- delivery to agents ------------------------------------------------------------------------
    def mcp_servers(self, info: AgentInfo | None, open_id: str) -> list[dict[str, Any]]:
        """The server for `session/new|load|resume` (agents with `mcpCapabilities.http`), with a bearer
        that stands for the chat once `bind(open_id, session_key)` names it."""
        if info is None or not info.supports("mcpCapabilities", "http") or self.reserve() is None:
            return []
        bearer = self.bearers.issue_unbound()
        self._pending_bearers[open_id] = bearer
        return [
            {
                "type": "http",
                "name": f"{SERVER_NAME}-{bearer[-8:]}",
                "url": self.url,
                "headers": [{"name": "Authorization", "value": f"Bearer {bearer}"}],
            }
        ]

    def bind(self, open_id: str, session_key: str | None) -> None:
        """The open `open_id` committed as `session_key` (None: it failed: the bearer is dropped)."""
        bearer = self._pending_bearers.pop(open_id, None)
        if bearer is not None:
            if session_key is None:
                self.bearers.forget_bearer(bearer)
            else:
                self.bearers.bind(bearer, session_key)

    def reaches_tools(self, info: AgentInfo | None, session_key: str) -> bool:
        if self.url is None or info is None:
            return False
        return self.bearers.has_session(session_key) or self.connected(info.name)

    def prompt_context(self, info: AgentInfo | None, session_key: str) -> str | None:
        """The user is sending a message in `session_key`'s chat: refresh its capability and build the
        hidden block (None when this agent cannot reach the tools)."""
        if not self.reaches_tools(info, session_key):
            return None
        token = self.capabilities.mint_for_user_message(session_key).token
        return wrap(self._context_body(session_key, token))

    def _context_body(self, session_key: str, token: str) -> str:
        lines = [
            f"ClawQt terminal access for this chat (MCP server {SERVER_NAME}; some agents name its tools "
            f"{SERVER_NAME}__read_terminal and so on, or find them through tool search).",
            f"contextToken: {token}",
            "Tools: list_terminals, read_terminal, send_terminal_input, open_terminal (give contextToken).",
            READ_ONLY_RULE,
        ]
        shown = 0
        for info in self.terminals.by_human_recency():
            if shown == MAX_SNAPSHOTS:
                break
            if info.sharing != "shared" or info.pinned_session not in (None, session_key):
                continue
            output_log = self.terminals.output_log(info.terminal_id)
            if output_log is None:
                continue
            read = output_log.read(None, SNAPSHOT_BYTES)
            if not shown:
                lines.append(UNTRUSTED)
            shown += 1
            lines.append(
                inert(f'--- terminal {info.terminal_id} "{info.title}" ({info.state}, cwd {info.cwd}); ')
                + f"newest shared output{' (older output not shown)' if read.truncated else ''}:"
            )
            lines.append(untrusted_output(plain_text(read.output).strip("\n") or "(no output yet)"))
        if not shown:
            lines.append("No terminal is shared with you right now.")
        return "\n".join(lines)

    def session_ended(self, session_key: str) -> None:
        self.capabilities.revoke_session(session_key)
        self.bearers.forget(session_key)


def _load_server_module() -> Any:
    import app.main.participation.mcp_server as module  # mcp, uvicorn, starlette: loaded off the GUI thread

    return module
