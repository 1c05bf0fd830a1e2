"""Signing in to the agent: when it refuses to open a chat because nobody is signed in (the connection
says so with the `sign-in` state), the user is offered the agent's own `authMethods` and this service
runs the one they choose:

- agent: `authenticate {methodId}`; the agent signs in itself (a browser, a device code);
- env_var: the values the user typed are kept in the system keyring (`SecretStore`) and the agent is
  restarted with them in its environment (and started with them from then on);
- terminal: the agent's OWN command with the method's args and env runs on a PTY the user sees and
  types into (a login flow); when it exits with 0 the agent is restarted to pick the credentials up.

Progress and outcome go out as SignInEnvelopes (`done` tells the renderer to open a chat again), the
login terminal's output as SignInTerminalEnvelopes. Authority: only methods the agent offered run; the
terminal runs the agent's own command, never one from the agent's message, in the user's home folder."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from app.contract.envelopes import AgentStateEnvelope, Envelope
from app.contract.errors import HostError
from app.contract.sign_in import AuthMethod, SignInEnvelope, SignInPhase, SignInTerminalEnvelope
from app.main.agents.auth_methods import parse_auth_methods
from app.main.agents.connection import AgentConnection
from app.main.agents.secret_store import SecretStore
from app.main.core.process_tree import kill_tagged, new_scope, tagged_env
from app.main.terminals.pty import PtyHandle, spawn_pty

log = logging.getLogger(__name__)

TERMINAL_SIZE = (24, 100)  # rows, columns
NO_KEYRING = "No system keyring is available: the key is kept only until ClawQt quits."


class SignInService:
    def __init__(
        self,
        connection: AgentConnection,
        emit: Callable[[Envelope], None],
        restart_agent: Callable[[], Awaitable[None]],
        secrets: SecretStore,
    ) -> None:
        self._connection = connection
        self._emit = emit
        self._restart_agent = restart_agent
        self._secrets = secrets
        self._agent = connection.command.name
        self.state: SignInEnvelope | None = None
        self._pty: PtyHandle | None = None
        self._terminal_task: asyncio.Task[None] | None = None
        self._terminals = 0
        self._scope = new_scope("sign-in")  # the login command and whatever it starts
        connection.env_overrides = secrets.env_for(self._agent)

    # --- the agent's state ---------------------------------------------------------------------
    def on_agent_state(self, envelope: AgentStateEnvelope) -> None:
        """The connection refused a chat for want of a sign-in: offer the agent's methods."""
        if envelope.state == "sign-in" and (self.state is None or self.state.phase in ("needed", "done")):
            info = self._connection.info
            methods = parse_auth_methods(info.auth_methods if info is not None else ())
            self._set("needed", reason=envelope.message, methods=methods)

    @property
    def methods(self) -> tuple[AuthMethod, ...]:
        return self.state.methods if self.state is not None else ()

    def _method(self, method_id: str) -> AuthMethod:
        for method in self.methods:
            if method.id == method_id:
                return method
        raise HostError(f"The agent offered no sign-in method {method_id!r}.", code="unknown-auth-method")

    def _set(self, phase: SignInPhase, **changes: Any) -> None:
        base = self.state
        fields: dict[str, Any] = {
            "agent_label": self._connection.label,
            "reason": base.reason if base is not None else "",
            "methods": base.methods if base is not None else (),
            "notice": base.notice if base is not None else "",
        }
        fields.update(changes)
        self.state = SignInEnvelope(phase, **fields)
        self._emit(self.state)

    # --- agent methods -------------------------------------------------------------------------
    async def authenticate(self, method_id: str) -> bool:
        """`authenticate {methodId}`; True when the agent accepted (a chat can open now)."""
        method = self._method(method_id)
        self._set("working", method_id=method.id)
        try:
            await self._connection.request("authenticate", {"methodId": method.id})
        except HostError as exc:
            self._set("needed", error=f"{method.name} did not work: {exc}")
            return False
        self._connection.signed_in()
        self._set("done", method_id=method.id)
        return True

    @property
    def can_sign_out(self) -> bool:
        """Whether the agent offers `logout` (agentCapabilities.auth.logout)."""
        info = self._connection.info
        return info is not None and info.supports("auth", "logout")

    async def sign_out(self) -> None:
        """`logout`: the agent forgets the user's sign-in, and so do the values ClawQt kept for it; its
        sign-in methods are offered again."""
        if not self.can_sign_out:
            raise HostError(f"{self._connection.label} offers no way to sign out.", code="capability-missing")
        await self._connection.request("logout", {})
        self._secrets.forget(self._agent)
        self._connection.env_overrides = {}
        self.state = None  # a sign-in done before is over: the agent's state brings the methods back
        self._connection.signed_out()

    # --- environment variables -----------------------------------------------------------------
    async def use_env(self, method_id: str, values: dict[str, str]) -> bool:
        """Keep the values, restart the agent with them; True when it started (the next chat shows
        whether they were right: a refusal brings the sign-in back with the agent's words)."""
        method = self._method(method_id)
        if method.kind != "env_var":
            raise HostError(f"{method.name} takes no values.", code="unknown-auth-method")
        wanted = {v.name: (values.get(v.name) or "").strip() for v in method.vars}
        missing = [v.label for v in method.vars if not v.optional and not wanted[v.name]]
        if missing:
            self._set("needed", error=f"Enter {', '.join(missing)} first.")
            return False
        given = {name: value for name, value in wanted.items() if value}
        persisted = self._secrets.store(self._agent, given)
        self._connection.env_overrides = {**self._connection.env_overrides, **given}
        return await self._restart(method.id, "" if persisted else NO_KEYRING, tell_agent=True)

    async def _restart(self, method_id: str, notice: str, *, tell_agent: bool = False) -> bool:
        """The agent started again; with `tell_agent`, then told which method's values it was given
        (`authenticate {methodId}`: Codex reads its key only then), before a chat is opened again."""
        self._set("working", method_id=method_id, notice=notice)
        try:
            await self._restart_agent()
        except HostError as exc:
            self._set("needed", error=f"The agent did not start again: {exc}", notice=notice)
            return False
        if tell_agent:
            try:
                await self._connection.request("authenticate", {"methodId": method_id})
            except HostError as exc:  # an agent that reads its variables alone may refuse: the chat says
                log.info("authenticate %s after the restart: %s", method_id, exc)
        self._set("done", method_id=method_id, notice=notice)
        return True

    async def retry(self) -> bool:
        """The user signed in some other way (the agent's own tool): start the agent again and let
        the chat open (a refusal brings the sign-in back)."""
        return await self._restart("", "")

    # --- the login terminal --------------------------------------------------------------------
    async def start_terminal(self, method_id: str) -> None:
        """Run the agent's own command with the method's args and env on a PTY the user types into."""
        method = self._method(method_id)
        if method.kind != "terminal":
            raise HostError(f"{method.name} does not run in a terminal.", code="unknown-auth-method")
        self.stop_terminal()
        self._terminals += 1
        terminal_id = f"sign-in-{self._terminals}"
        argv = [*self._connection.command.argv, *method.args]
        env = {**os.environ, **self._connection.env_overrides, **dict(method.env), "TERM": "xterm-256color"}
        env = tagged_env(env, self._scope)
        try:
            pty = spawn_pty(argv, str(Path.home()), env, TERMINAL_SIZE)
        except (OSError, ImportError) as exc:
            self._set("needed", error=f"The sign-in command could not start: {exc}")
            return
        self._pty = pty
        self._set("terminal", method_id=method.id, terminal_id=terminal_id, error="")
        self._terminal_task = asyncio.get_running_loop().create_task(
            self._run_terminal(pty, method, terminal_id), name="sign-in-terminal"
        )
        self._terminal_task.add_done_callback(_logged)

    async def _run_terminal(self, pty: PtyHandle, method: AuthMethod, terminal_id: str) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        eof = asyncio.get_running_loop().create_future()

        def on_data(data: bytes) -> None:
            self._emit(SignInTerminalEnvelope(terminal_id, decoder.decode(data)))

        def on_eof() -> None:
            if not eof.done():
                eof.set_result(None)

        pty.start(on_data, on_eof)
        try:
            code, signal = await pty.wait()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(eof, 1.0)  # the last output, read before the exit is shown
        finally:
            pty.close()
            if self._pty is pty:
                self._pty = None
        self._emit(SignInTerminalEnvelope(terminal_id, decoder.decode(b"", final=True), True, code, signal))
        if code == 0:
            await self._restart(method.id, "")
        elif self.state is not None and self.state.terminal_id == terminal_id:
            ended = f"signal {signal}" if signal else f"code {code}"
            self._set(
                "terminal",
                method_id=method.id,
                terminal_id=terminal_id,
                error=f"The sign-in ended with {ended}.",
            )

    def terminal_input(self, text: str) -> None:
        """What the user typed into the login terminal (ignored once it ended)."""
        if self._pty is not None and text:
            with contextlib.suppress(OSError):
                self._pty.write(text.encode("utf-8"))

    def stop_terminal(self) -> None:
        """Kill the login command (the user gave up); the methods are offered again."""
        pty, self._pty = self._pty, None
        if pty is not None:
            pty.kill()
            kill_tagged(self._scope)
            if self.state is not None and self.state.phase == "terminal":
                self._set("needed", terminal_id="", error="")

    def shutdown(self) -> None:
        pty, self._pty = self._pty, None
        if pty is not None:
            pty.kill()
        kill_tagged(self._scope)
        if self._terminal_task is not None:
            self._terminal_task.cancel()


def _logged(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("the sign-in terminal failed", exc_info=task.exception())


__all__ = ["SignInService"]
