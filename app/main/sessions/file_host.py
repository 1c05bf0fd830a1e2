"""The agent's `fs/read_text_file` and `fs/write_text_file`, served for the session the request names
(`files/agent_files.py` does the confined, bounded file work), and the host calls the renderer makes about
the files the agent changed in a turn (show them with a diff, revert one).

Authority: a request is served only for a session open right now; its roots are the session's cwd plus
the folders the user granted (`--add-dir`, `additionalDirectories`); writes are recorded under the live
prompt's message id (the turn). Every change to that record is announced with a FileChangesEnvelope."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from app.contract.envelopes import Envelope, FileChangesEnvelope, FileChangeView
from app.contract.errors import FileChangeRefused
from app.main.files.agent_files import AgentFileError, AgentFiles, FileChange
from app.main.files.attachment_access import display_name
from app.main.sessions.machine import SessionContext, SessionMachine

UNKNOWN_TURN = "turn:unknown"  # a write outside any prompt (an agent acting on its own)

Diagnose = Callable[[str, str, str | None], None]  # (code, message, session key)


class AgentFileHost:
    def __init__(
        self,
        sessions: SessionMachine,
        emit: Callable[[Envelope], None],
        diagnose: Diagnose,
        additional_directories: list[str],
    ) -> None:
        self._sessions = sessions
        self._emit = emit
        self._diagnose = diagnose
        self.additional_directories = additional_directories
        self.files = AgentFiles()
        self._diffs: dict[tuple[str, str, str], tuple[str, str]] = {}  # (key, turn, path) -> (after, diff)

    def _context(self, acp_session_id: str, method: str, path: str) -> SessionContext:
        context = self._sessions.context_of(acp_session_id)
        if context is None:
            message = f"no open session {acp_session_id!r}"
            self._diagnose("fs-refused", f"{method} {path!r}: {message}", None)
            raise AgentFileError("resource_not_found", message)
        return context

    def _roots(self, context: SessionContext) -> list[str]:
        return [context.cwd, *self.additional_directories]

    # --- fs/* -----------------------------------------------------------------------------------------
    async def read(self, acp_session_id: str, path: str, line: int | None, limit: int | None) -> str:
        """The text read (AgentFileError when refused). Off the event loop: a 10 MiB read on a slow disk
        must not freeze the window."""
        context = self._context(acp_session_id, "fs/read_text_file", path)
        try:
            return await asyncio.to_thread(
                self.files.read, context.key, self._roots(context), path, line, limit
            )
        except AgentFileError as exc:
            self._diagnose("fs-refused", f"fs/read_text_file {path!r}: {exc}", context.key)
            raise

    def write(self, acp_session_id: str, path: str, content: str) -> None:
        """Write and record the change (AgentFileError when refused)."""
        context = self._context(acp_session_id, "fs/write_text_file", path)
        turn_id = context.turn_id or UNKNOWN_TURN
        try:
            self.files.write(context.key, turn_id, self._roots(context), path, content)
        except AgentFileError as exc:
            self._diagnose("fs-refused", f"fs/write_text_file {path!r}: {exc}", context.key)
            raise
        self._emit(FileChangesEnvelope(context.key, context.generation, turn_id))

    # --- the host API: what changed in a turn -------------------------------------------------------
    def turns(self, session_key: str) -> list[str]:
        return self.files.turns(session_key)

    def changes(self, session_key: str, turn_id: str) -> list[FileChangeView]:
        """The files the agent wrote in a turn (its prompt's message id), each with its diff."""
        return [
            FileChangeView(
                path=change.path,
                name=display_name(os.path.basename(change.path)),
                created=change.before is None,
                diff=self._diff_of(session_key, change),
            )
            for change in self.files.changes(session_key, turn_id)
        ]

    def _diff_of(self, session_key: str, change: FileChange) -> str:
        """Computed once per write: a diff of a large file is not work to repeat on every look."""
        key = (session_key, change.turn_id, change.path)
        cached = self._diffs.get(key)
        if cached is None or cached[0] is not change.after:
            cached = self._diffs[key] = (change.after, AgentFiles.diff(change))
        return cached[1]

    def revert(self, session_key: str, turn_id: str, path: str) -> None:
        """Undo the agent's write; FileChangeRefused (with the reason) when the file changed since."""
        try:
            self.files.revert(session_key, turn_id, path)
        except AgentFileError as exc:
            raise FileChangeRefused(str(exc)) from exc
        active = self._sessions.active
        generation = active.generation if active is not None and active.key == session_key else 0
        self._emit(FileChangesEnvelope(session_key, generation, turn_id))

    def forget_session(self, session_key: str) -> None:
        self.files.forget_session(session_key)
        for key in [k for k in self._diffs if k[0] == session_key]:
            del self._diffs[key]
