"""The agent's `terminal/*` requests, served on real PTYs (`terminals/client.py`) for the session the
request names, and the output pushed to the renderer as TerminalOutputEnvelopes as it arrives (decoded
incrementally, so a chunk never ends inside a UTF-8 character).

Authority: a request is served only for a session open right now (a live prompt's, or the one shown);
the terminal runs inside that session's workspace (checked by `ClientTerminals`). A turn the user
stopped does not leave its terminals running: whatever the agent neither killed nor released within a
short grace is killed by ClawQt (the output stays; the card says why it ended)."""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import Any

from app.contract.envelopes import Envelope, TerminalOutputEnvelope
from app.main.sessions.machine import SessionContext, SessionMachine
from app.main.terminals.client import ClientTerminals, ExitStatus, Spawn, TerminalError
from app.main.terminals.pty import spawn_pty

Diagnose = Callable[[str, str], None]  # (code, message)


class ClientTerminalHost:
    def __init__(
        self,
        sessions: SessionMachine,
        emit: Callable[[Envelope], None],
        diagnose: Diagnose,
        spawn: Spawn = spawn_pty,
    ) -> None:
        self._sessions = sessions
        self._emit = emit
        self._diagnose = diagnose
        self.terminals = ClientTerminals(self._on_output, spawn)
        self._decoders: dict[str, codecs.IncrementalDecoder] = {}
        self._generations: dict[str, int] = {}
        self._turn_of: dict[str, str] = {}  # running terminal -> the turn (prompt message id) that made it
        self._notes: dict[str, str] = {}  # why ClawQt ended a terminal

    def __len__(self) -> int:
        return len(self.terminals)

    def _context(self, acp_session_id: str) -> SessionContext:
        context = self._sessions.context_of(acp_session_id)
        if context is None:
            raise TerminalError(f"no open session {acp_session_id!r}")
        return context

    # --- terminal/* ----------------------------------------------------------------------------------
    def create(
        self,
        acp_session_id: str,
        command: str,
        args: list[str] | None,
        env: list[dict[str, Any]] | None,
        cwd: str | None,
        output_byte_limit: int | None,
    ) -> str:
        """Start the command; raises TerminalError (told to the agent) when refused."""
        try:
            context = self._context(acp_session_id)
            terminal_id = self.terminals.create(
                context.key, context.cwd, command, args, env, cwd, output_byte_limit
            )
        except TerminalError as exc:
            self._diagnose("terminal-refused", str(exc))
            raise
        self._generations[terminal_id] = context.generation
        if context.turn_id is not None:
            self._turn_of[terminal_id] = context.turn_id
        return terminal_id

    def end_turn_terminals(self, turn_id: str, note: str) -> int:
        """Kill the turn's terminals still running (the output is kept); how many were."""
        killed = 0
        for terminal_id in [tid for tid, turn in self._turn_of.items() if turn == turn_id]:
            if self.terminals.running(terminal_id):
                self._notes[terminal_id] = note
                self.terminals.kill_any(terminal_id)
                killed += 1
        return killed

    def output(self, acp_session_id: str, terminal_id: str) -> dict[str, Any]:
        return self.terminals.output(self._context(acp_session_id).key, terminal_id)

    async def wait_for_exit(self, acp_session_id: str, terminal_id: str) -> dict[str, Any]:
        return await self.terminals.wait_for_exit(self._context(acp_session_id).key, terminal_id)

    def kill(self, acp_session_id: str, terminal_id: str) -> None:
        self.terminals.kill(self._context(acp_session_id).key, terminal_id)

    def release(self, acp_session_id: str, terminal_id: str) -> None:
        self.terminals.release(self._context(acp_session_id).key, terminal_id)

    # --- lifecycle -----------------------------------------------------------------------------------
    def close_session(self, session_key: str) -> None:
        self.terminals.close_session(session_key)

    def shutdown(self) -> None:
        self.terminals.shutdown()

    def _on_output(self, session_key: str, terminal_id: str, data: bytes, status: ExitStatus | None) -> None:
        decoder = self._decoders.setdefault(terminal_id, codecs.getincrementaldecoder("utf-8")("replace"))
        text = decoder.decode(data, final=status is not None)
        self._emit(
            TerminalOutputEnvelope(
                session_key,
                self._generations.get(terminal_id, 0),
                terminal_id,
                text,
                exited=status is not None,
                exit_code=status.exit_code if status else None,
                signal=status.signal if status else None,
                note=self._notes.pop(terminal_id, "") if status is not None else "",
            )
        )
        if status is not None:
            self._decoders.pop(terminal_id, None)
            self._turn_of.pop(terminal_id, None)


def raw_create_problem(params: Any) -> str:
    """Why a `terminal/create` cannot be run as the agent wrote it ("" when it can): every argument
    must be text and every env entry a {name, value} of text, as the protocol says."""
    if not isinstance(params, dict):
        return "terminal/create needs an object of parameters"
    args = params.get("args")
    if args is not None and (not isinstance(args, list) or not all(isinstance(a, str) for a in args)):
        return "refused to run the command: every argument must be text"
    env = params.get("env")
    if env is not None:
        entries_ok = isinstance(env, list) and all(
            isinstance(e, dict) and isinstance(e.get("name"), str) and isinstance(e.get("value"), str)
            for e in env
        )
        if not entries_ok:
            return "refused to run the command: every env entry must be {name, value} of text"
    return ""
