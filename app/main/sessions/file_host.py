"""The agent's `fs/read_text_file` and `fs/write_text_file`, served for the session the request names
(`files/agent_files.py` does the confined, bounded file work), and the host calls the renderer makes about
the files changed in a turn (show them with a diff, revert one): the agent's writes through `fs/*` and
every other change the turn's snapshots saw (`review/turn_changes.py`: its shell commands, its own
tools), a file written through `fs/*` shown once, with the diff against what the agent read.

Authority: a request is served only for a session open right now; its roots are the session's cwd plus
the folders the user granted (`--add-dir`, `additionalDirectories`, a project's folders the user
trusted); writes are recorded under the live
prompt's message id (the turn). Every change to that record is announced with a FileChangesEnvelope."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

from app.contract.diffs import unified_diff
from app.contract.envelopes import (
    Envelope,
    FileChangesEnvelope,
    FileChangeView,
    HunkView,
    ReviewFileView,
)
from app.contract.errors import FileChangeRefused
from app.main.core import paths
from app.main.files.agent_files import AgentFileError, AgentFiles, FileChange
from app.main.files.attachment_access import display_name
from app.main.review.blobs import BlobMissing
from app.main.review.change_sets import FileDelta
from app.main.review.checkpoints import NoCheckpoint, RestorePlan, plan_restore, restore
from app.main.review.review_desk import ReviewDesk
from app.main.review.turn_changes import TurnChanges
from app.main.review.undo import UndoRefused
from app.main.sessions.machine import SessionContext, SessionMachine
from app.main.stores.project_grants import NO_GRANTS, Grants

UNKNOWN_TURN = "turn:unknown"  # a write outside any prompt (an agent acting on its own)

Diagnose = Callable[[str, str, str | None], None]  # (code, message, session key)


class AgentFileHost:
    def __init__(
        self,
        sessions: SessionMachine,
        emit: Callable[[Envelope], None],
        diagnose: Diagnose,
        additional_directories: list[str],
        turn_changes: TurnChanges | None = None,
    ) -> None:
        self._sessions = sessions
        # every agent's service shares one (a folder's snapshots serve all its chats): build_host makes it
        self.turn_changes = turn_changes or TurnChanges(paths.data_dir() / "review", paths.own_folders())
        self.desk = ReviewDesk(self.turn_changes)
        self._plans: dict[tuple[str, str], RestorePlan] = {}  # the restore each chat's user looked at
        self._emit = emit
        self._diagnose = diagnose
        self.additional_directories = additional_directories
        self.grants: Callable[[str], Grants] = lambda _cwd: NO_GRANTS  # the chat's project's, trusted
        self.files = AgentFiles()
        # (key, turn, path) -> (after, diff) for writes; ("", root, path) -> (stamp, diff, note) for the rest
        self._diffs: dict[tuple[str, str, str], tuple[str, ...]] = {}

    def _context(self, acp_session_id: str, method: str, path: str) -> SessionContext:
        context = self._sessions.context_of(acp_session_id)
        if context is None:
            message = f"no open session {acp_session_id!r}"
            self._diagnose("fs-refused", f"{method} {path!r}: {message}", None)
            raise AgentFileError("resource_not_found", message)
        return context

    def _roots(self, context: SessionContext) -> list[str]:
        return [context.cwd, *self.additional_directories, *self.grants(context.cwd).folders]

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
        written = self.files.turns(session_key)
        return [*written, *(t for t in self.turn_changes.turns(session_key) if t not in written)]

    def changes(self, session_key: str, turn_id: str) -> list[FileChangeView]:
        """The files changed in a turn (its prompt's message id), each with its diff."""
        written = [
            FileChangeView(
                path=change.path,
                name=display_name(os.path.basename(change.path)),
                created=change.before is None,
                diff=self._diff_of(session_key, change),
            )
            for change in self.files.changes(session_key, turn_id)
        ]
        paths = {view.path for view in written}
        seen = [
            self._seen(delta)
            for delta in self.turn_changes.changes(session_key, turn_id)
            if _absolute(delta) not in paths
        ]
        return written + seen

    def _seen(self, delta: FileDelta) -> FileChangeView:
        path = _absolute(delta)
        key = ("", delta.root, delta.path)
        stamp = f"{delta.before.digest if delta.before else ''}:{delta.after.digest if delta.after else ''}"
        cached = self._diffs.get(key)
        if cached is None or cached[0] != stamp:
            cached = self._diffs[key] = (stamp, *snapshot_diff(delta, self.turn_changes))
        _stamp, diff, note = cached
        return FileChangeView(
            path=path,
            name=display_name(os.path.basename(path)),
            created=delta.status == "created",
            diff=diff,
            deleted=delta.status == "deleted",
            note=note,
        )

    def _diff_of(self, session_key: str, change: FileChange) -> str:
        """Computed once per write: a diff of a large file is not work to repeat on every look."""
        key = (session_key, change.turn_id, change.path)
        cached = self._diffs.get(key)
        if cached is None or cached[0] is not change.after:
            cached = self._diffs[key] = (change.after, AgentFiles.diff(change))
        return cached[1]

    # --- each turn's snapshots (review/turn_changes.py) --------------------------------------------
    def own_files(self, stderr_log: Path, trace: Path | None) -> None:
        """The files this agent's service writes (its stderr log, rotated too, a trace being recorded):
        never part of a turn's changes, wherever the chat's folder is."""
        rotated = stderr_log.with_suffix(stderr_log.suffix + ".1")
        self.turn_changes.leave_out(stderr_log, rotated, *([trace] if trace is not None else []))

    async def before_turn(self, session_key: str, turn_id: str, roots: list[str]) -> None:
        """The turn's folders before its prompt goes out."""
        await self._tracked(session_key, self.turn_changes.before_turn(session_key, turn_id, roots))

    async def settle_turn(self, session_key: str, generation: int, turn_id: str) -> None:
        """The turn's folders once it settled; its change set announced when it has news."""
        await self._tracked(session_key, self.turn_changes.after_turn(session_key, turn_id))
        self._announce(session_key, generation, turn_id)

    async def _tracked(self, session_key: str, snapshot: Awaitable[object]) -> None:
        """A scan that fails is said and the turn goes on: tracking never costs the user their turn."""
        try:
            await snapshot
        except (OSError, sqlite3.Error) as exc:
            self._diagnose("snapshot-failed", f"Changes of this turn are not tracked: {exc}", session_key)

    def _announce(self, session_key: str, generation: int, turn_id: str) -> None:
        """The turn's snapshots are in: announced when they saw a change its `fs/*` writes did not, or
        one made outside the chat before it."""
        written = {change.path for change in self.files.changes(session_key, turn_id)}
        seen = self.turn_changes.changes(session_key, turn_id)
        if any(_absolute(d) not in written for d in seen) or self.turn_changes.outside(session_key, turn_id):
            self._emit(FileChangesEnvelope(session_key, generation, turn_id))

    def outside(self, session_key: str, turn_id: str) -> list[FileChangeView]:
        """What changed outside the chat between its previous turn and `turn_id` (the user's edits)."""
        return [self._seen(delta) for delta in self.turn_changes.outside(session_key, turn_id)]

    def outside_turns(self, session_key: str) -> list[str]:
        return self.turn_changes.outside_turns(session_key)

    def revert(self, session_key: str, turn_id: str, path: str) -> None:
        """Undo the turn's change to `path`; FileChangeRefused (with the reason) when the file changed
        since, or cannot be put back."""
        written = {change.path for change in self.files.changes(session_key, turn_id)}
        try:
            if path in written or os.path.realpath(path) in written:
                self.files.revert(session_key, turn_id, path)
                self.turn_changes.mark_undone(session_key, turn_id, os.path.realpath(path))
            else:
                delta = self.turn_changes.find(session_key, turn_id, os.path.realpath(path))
                if delta is None:
                    raise FileChangeRefused(f"{path!r}: no recorded change in this turn")
                self.turn_changes.undo_now(session_key, turn_id, delta)
        except (AgentFileError, UndoRefused) as exc:
            raise FileChangeRefused(str(exc)) from exc
        active = self._sessions.active
        generation = active.generation if active is not None and active.key == session_key else 0
        self._emit(FileChangesEnvelope(session_key, generation, turn_id))

    # --- review, hunk by hunk (review/review_desk.py) ------------------------------------------------
    def review(self, session_key: str, turn_id: str) -> list[ReviewFileView]:
        return [
            ReviewFileView(
                path=_absolute(file.delta),
                name=display_name(os.path.basename(file.delta.path)),
                status=file.delta.status,
                hunks=tuple(
                    HunkView(h.id, h.old_start, h.new_start, h.old, h.new, h.id in file.kept)
                    for h in file.hunks
                ),
                whole=file.whole,
            )
            for file in self.desk.review(session_key, turn_id)
        ]

    def undo_hunk(self, session_key: str, turn_id: str, path: str, hunk_id: str) -> None:
        self._reviewed(session_key, turn_id, lambda: self.desk.undo_hunk(session_key, turn_id, path, hunk_id))
        self.files.forget_change(session_key, turn_id, path)  # the snapshot's diff is what remains

    def keep_hunks(self, session_key: str, turn_id: str, path: str, hunk_ids: list[str]) -> None:
        self._reviewed(session_key, turn_id, lambda: self.desk.keep(session_key, turn_id, path, hunk_ids))

    def undo_turn(self, session_key: str, turn_id: str) -> list[str]:
        refused: list[str] = []
        for change in self.files.changes(session_key, turn_id):  # the agent's fs/* writes first
            try:
                self.files.revert(session_key, turn_id, change.path)
                self.turn_changes.mark_undone(session_key, turn_id, change.path)
            except AgentFileError as exc:
                refused.append(str(exc))
        written = {change.path for change in self.files.changes(session_key, turn_id)}
        self._reviewed(
            session_key,
            turn_id,
            lambda: refused.extend(self.desk.undo_turn(session_key, turn_id, skip=written)),
        )
        return refused

    # --- checkpoints: Restore to here (review/checkpoints.py) -----------------------------------------
    async def plan_restore(self, session_key: str, turn_id: str) -> list[FileChangeView]:
        """What Restore to the message `turn_id` would change, file by file (FileChangeRefused when the
        message has no snapshot). The plan is kept for `restore`."""
        try:
            plan = await plan_restore(self.turn_changes, session_key, turn_id)
        except NoCheckpoint as exc:
            raise FileChangeRefused(str(exc)) from exc
        self._plans[(session_key, turn_id)] = plan
        steps = [
            FileChangeView(
                path=_absolute(step),
                name=display_name(os.path.basename(step.path)),
                created=step.status == "created",
                diff="",
                deleted=step.status == "deleted",
            )
            for step in plan.steps
        ]
        notes = [FileChangeView(path="", name="", created=False, diff="", note=note) for note in plan.notes]
        return steps + notes

    def restore(self, session_key: str, turn_id: str) -> list[str]:
        """Carry out the plan `plan_restore` made; the sentences of the files left as they are."""
        plan = self._plans.pop((session_key, turn_id), None)
        if plan is None:
            raise FileChangeRefused("Look at what Restore would change first")
        return restore(self.turn_changes, plan)

    def _reviewed(self, session_key: str, turn_id: str, act: Callable[[], None]) -> None:
        """Do it, then announce the turn's files (FileChangeRefused with the reason when refused)."""
        try:
            act()
        except UndoRefused as exc:
            raise FileChangeRefused(str(exc)) from exc
        active = self._sessions.active
        generation = active.generation if active is not None and active.key == session_key else 0
        self._emit(FileChangesEnvelope(session_key, generation, turn_id))

    def forget_session(self, session_key: str) -> None:
        self.files.forget_session(session_key)
        for key in [k for k in self._diffs if k[0] == session_key]:
            del self._diffs[key]


def _absolute(delta: FileDelta) -> str:
    return os.path.join(delta.root, *delta.path.split("/"))


def snapshot_diff(delta: FileDelta, changes: TurnChanges) -> tuple[str, str]:
    """(the unified diff, a note) of a change the snapshots saw: no diff for a binary file or one
    too large to keep, the note says which."""
    entries = [entry for entry in (delta.before, delta.after) if entry is not None]
    if any(entry.kind == "large" for entry in entries):
        return "", "Too large to keep a copy of: changed, not shown"
    if any(entry.kind == "unreadable" for entry in entries):
        return "", "Could not be read while the turn ran"
    if any(entry.kind == "binary" for entry in entries):
        return "", "Binary file"
    try:
        old = changes.blobs.read(delta.before.digest).decode("utf-8") if delta.before else None
        new = changes.blobs.read(delta.after.digest).decode("utf-8") if delta.after else ""
    except UnicodeDecodeError:
        return "", "Not UTF-8 text: changed, not shown"
    except BlobMissing as exc:
        return "", str(exc)
    return unified_diff(old, new, delta.path), ""
