"""The agent's file access (`fs/read_text_file`, `fs/write_text_file`), confined to the session's roots.

Why this exists: an agent that writes through the client lets ClawQt show what changed in a turn and undo
it. Every path is resolved (symlinks and `..` included) and checked against the session's roots with
`os.path.commonpath`, never by string prefix; only regular files are opened (FIFOs and devices would hang
or stream forever); reads and writes are bounded; writes are atomic (temp file + fsync + rename), so a
failure half-way leaves the original intact. No Qt here: the chat service owns one instance.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Literal

from app.contract.diffs import split_lines, unified_diff
from app.main.paths import within
from app.main.regular_files import NotRegular, open_regular, read_at_most

MAX_READ_BYTES = 10 * 1024 * 1024
MAX_WRITE_BYTES = 10 * 1024 * 1024
# What the agent last read is kept for diffs; bounded so a long session cannot hoard memory.
MAX_READ_MEMORY = 64 * 1024 * 1024
TEMP_PREFIX = ".clawqt-"

ErrorCode = Literal["resource_not_found", "invalid_params", "internal"]


class AgentFileError(Exception):
    """A refused or failed file request; `code` picks the JSON-RPC error the agent gets."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code


@dataclass
class FileChange:
    """One path changed by the agent in one turn: `before` is None for a file the agent created;
    `read_base` is what the agent last read of it (None if it never did)."""

    turn_id: str
    path: str
    before: str | None
    after: str
    read_base: str | None
    # the original bytes exactly, so a revert restores a file that was not valid UTF-8 faithfully
    before_bytes: bytes | None = field(default=None, repr=False, compare=False)


def atomic_write_text(path: str, text: str, mode: int) -> None:
    """Write `text` (UTF-8) to `path` atomically with permission bits `mode`."""
    atomic_write_bytes(path, text.encode("utf-8"), mode)


def atomic_write_bytes(path: str, data: bytes, mode: int) -> None:
    """Temp file in the same directory, fsync, chmod, `os.replace`: readers see the old file or the new
    one, never half of one. On any failure the temp file is removed and `path` is untouched."""
    directory = os.path.dirname(path)
    fd, temp = tempfile.mkstemp(dir=directory, prefix=TEMP_PREFIX, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable (best effort; not on Windows)
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _default_mode() -> int:
    """0o666 & ~umask, read without changing the umask where the system tells it (another thread could
    create a file in between)."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
        for row in status:
            if row.startswith("Umask:"):
                return 0o666 & ~int(row.split()[1], 8)
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _inside(path: str, roots: list[str]) -> bool:
    return any(within(path, root) for root in roots)


def _check_count(name: str, value: int | None) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise AgentFileError("invalid_params", f"{name} must be an integer >= 1, got {value!r}")


def _require_absolute(path: str) -> None:
    if not isinstance(path, str) or not path or "\x00" in path:
        raise AgentFileError("invalid_params", "path must be a non-empty string")
    if not os.path.isabs(path):
        raise AgentFileError("invalid_params", f"path must be absolute: {path!r}")


def _outside(path: str) -> AgentFileError:
    # the same words whether or not the file exists: nothing outside the roots is probed for the agent
    return AgentFileError("resource_not_found", f"{path!r} is outside the session folder")


def _read_bytes(path: str) -> bytes:
    """A regular file's bytes, at most MAX_READ_BYTES; anything else is refused before it is opened."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise AgentFileError("resource_not_found", f"{path!r} does not exist") from None
    except OSError as exc:
        raise AgentFileError("internal", f"cannot stat {path!r}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise AgentFileError("invalid_params", f"{path!r} is not a regular file")
    if info.st_size > MAX_READ_BYTES:
        raise AgentFileError(
            "invalid_params",
            f"{path!r} is {info.st_size} bytes; files over {MAX_READ_BYTES // (1024 * 1024)} MiB "
            "are not read",
        )
    try:
        fd = open_regular(path, same_as=info)
    except NotRegular:
        raise AgentFileError("invalid_params", f"{path!r} changed while being opened") from None
    except OSError as exc:
        raise AgentFileError("internal", f"cannot open {path!r}: {exc.strerror}") from None
    try:
        data, more = read_at_most(fd, MAX_READ_BYTES)
    except OSError as exc:
        raise AgentFileError("internal", f"cannot read {path!r}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if more:
        raise AgentFileError("invalid_params", f"{path!r} grew past the read limit while reading")
    return data


class AgentFiles:
    """Per-session file access for the agent, with a record of what it read and changed per turn."""

    def __init__(self) -> None:
        self._reads: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._read_chars = 0
        self._changes: dict[str, dict[str, dict[str, FileChange]]] = {}

    # --- reading -----------------------------------------------------------------------------------
    def read(self, session_key: str, roots: list[str], path: str, line: int | None, limit: int | None) -> str:
        """`limit` lines from 1-based `line` (whole file by default), line endings kept."""
        _require_absolute(path)
        _check_count("line", line)
        _check_count("limit", limit)
        real = os.path.realpath(path)
        if not _inside(real, self._roots(roots)):
            raise _outside(path)
        text = _read_bytes(real).decode("utf-8", errors="replace")
        self._remember_read(session_key, real, text)
        if line is None and limit is None:
            return text
        start = (line or 1) - 1
        lines = split_lines(text)
        return "".join(lines[start : start + limit if limit is not None else None])

    def _remember_read(self, session_key: str, real: str, text: str) -> None:
        previous = self._reads.pop((session_key, real), None)
        if previous is not None:
            self._read_chars -= len(previous)
        self._reads[(session_key, real)] = text
        self._read_chars += len(text)
        while self._read_chars > MAX_READ_MEMORY and len(self._reads) > 1:
            _, dropped = self._reads.popitem(last=False)
            self._read_chars -= len(dropped)

    # --- writing -----------------------------------------------------------------------------------
    def write(self, session_key: str, turn_id: str, roots: list[str], path: str, content: str) -> None:
        """Replace (or create) `path` with `content` atomically and record the change for `turn_id`."""
        _require_absolute(path)
        if not isinstance(content, str):
            raise AgentFileError("invalid_params", "content must be a string")
        try:
            data = content.encode("utf-8")
        except UnicodeEncodeError:
            raise AgentFileError("invalid_params", "content is not valid Unicode text") from None
        if len(data) > MAX_WRITE_BYTES:
            raise AgentFileError(
                "invalid_params",
                f"content is {len(data)} bytes; the limit is {MAX_WRITE_BYTES // (1024 * 1024)} MiB",
            )
        target = self._write_target(self._roots(roots), path)
        before_bytes = self._current_bytes(target)
        mode = stat.S_IMODE(os.stat(target).st_mode) if before_bytes is not None else _default_mode()
        try:
            atomic_write_bytes(target, data, mode)
        except OSError as exc:
            code: ErrorCode = "resource_not_found" if isinstance(exc, FileNotFoundError) else "internal"
            raise AgentFileError(code, f"cannot write {path!r}: {exc.strerror}") from None
        turn = self._changes.setdefault(session_key, {}).setdefault(turn_id, {})
        existing = turn.get(target)
        if existing is not None:
            existing.after = content
            return
        turn[target] = FileChange(
            turn_id,
            target,
            before_bytes.decode("utf-8", errors="replace") if before_bytes is not None else None,
            content,
            self._reads.get((session_key, target)),
            before_bytes,
        )

    def _write_target(self, roots: list[str], path: str) -> str:
        """The canonical file to replace: the parent resolved, the name kept; a symlink is followed only
        when it stays inside the roots; anything but a regular file (or nothing yet) is refused."""
        name = os.path.basename(path)
        if name in ("", ".", ".."):
            raise AgentFileError("invalid_params", f"{path!r} does not name a file")
        target = os.path.join(os.path.realpath(os.path.dirname(path)), name)
        if not _inside(target, roots):
            raise _outside(path)
        if os.path.islink(target):
            target = os.path.realpath(target)
            if not _inside(target, roots):
                raise _outside(path)
        if os.path.lexists(target) and not stat.S_ISREG(os.lstat(target).st_mode):
            raise AgentFileError("invalid_params", f"{path!r} is not a regular file")
        return target

    @staticmethod
    def _current_bytes(target: str) -> bytes | None:
        if not os.path.lexists(target):
            return None
        return _read_bytes(target)

    @staticmethod
    def _roots(roots: list[str]) -> list[str]:
        return [os.path.realpath(root) for root in roots if isinstance(root, str) and os.path.isabs(root)]

    # --- changes -----------------------------------------------------------------------------------
    def turns(self, session_key: str) -> list[str]:
        """The turns with recorded changes, in the order of their first write."""
        return [turn for turn, changes in self._changes.get(session_key, {}).items() if changes]

    def changes(self, session_key: str, turn_id: str) -> list[FileChange]:
        """The files the agent changed in a turn, in the order it first wrote them."""
        return list(self._changes.get(session_key, {}).get(turn_id, {}).values())

    def revert(self, session_key: str, turn_id: str, path: str) -> None:
        """Put back what was there before the agent's write (or delete a file it created); refused when
        the file changed since, so a later edit by the user is never clobbered."""
        turn = self._changes.get(session_key, {}).get(turn_id, {})
        key = path if path in turn else os.path.realpath(path)
        change = turn.get(key)
        if change is None:
            raise AgentFileError("resource_not_found", f"no recorded change to {path!r} in this turn")
        current = self._current_bytes(change.path)
        if current != change.after.encode("utf-8"):
            raise AgentFileError(
                "invalid_params", f"{change.path!r} changed since the agent wrote it; not reverted"
            )
        try:
            if change.before is None:
                os.unlink(change.path)
            else:
                original = (
                    change.before_bytes
                    if change.before_bytes is not None
                    else (change.before or "").encode("utf-8")
                )
                atomic_write_bytes(change.path, original, stat.S_IMODE(os.stat(change.path).st_mode))
        except OSError as exc:
            raise AgentFileError("internal", f"cannot revert {change.path!r}: {exc.strerror}") from None
        del turn[key]

    @staticmethod
    def diff(change: FileChange) -> str:
        """Unified diff of what the agent based its edit on (its last read, else the old file) vs now."""
        base = change.read_base if change.read_base is not None else change.before
        return unified_diff(base, change.after, change.path)

    def forget_session(self, session_key: str) -> None:
        """Drop everything recorded for a session (it was closed)."""
        self._changes.pop(session_key, None)
        for read_key in [k for k in self._reads if k[0] == session_key]:
            self._read_chars -= len(self._reads.pop(read_key))
