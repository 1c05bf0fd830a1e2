"""The agent's file access (`fs/read_text_file`, `fs/write_text_file`), confined to the session's roots.

Why this exists: an agent that writes through the client lets ClawQt show what changed in a turn and undo
it. Every path is made canonical (symlinks and `..` resolved) and checked against the session's roots
with `os.path.commonpath`, never by string prefix; then it is used only through `confined_open.py`: each
folder from the root down opened in its parent without following a symlink, the file opened (or the temp
file made and renamed) in the verified folder's descriptor, so a folder swapped for a symlink between the
check and the use can neither leak a read nor land a write outside (a changed tree is walked again, at
most RETRIES times, then refused). Only regular files are opened (FIFOs and devices would hang or stream
forever); reads and writes are bounded; writes are atomic (temp file + fsync + rename), so a failure
half-way leaves the original intact. No Qt here: the chat service owns one instance.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from app.contract.diffs import split_lines, unified_diff
from app.main.files.atomic import default_file_mode
from app.main.files.confined_open import (
    Changed,
    Dir,
    Place,
    canonical,
    open_dir,
    open_regular_at,
    open_regular_beneath,
    place_under,
    replace_atomically,
)
from app.main.files.regular_files import NotRegular, read_at_most

MAX_READ_BYTES = 10 * 1024 * 1024
MAX_WRITE_BYTES = 10 * 1024 * 1024
# What the agent last read is kept for diffs; bounded so a long session cannot hoard memory.
MAX_READ_MEMORY = 64 * 1024 * 1024
# A walk that met a changed tree (a swap in progress) starts again from the agent's path this many times.
RETRIES = 3

ErrorCode = Literal["resource_not_found", "invalid_params", "internal"]
T = TypeVar("T")


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
    # where it was written (root + canonical names), so a revert walks the same verified way
    place: Place | None = field(default=None, repr=False, compare=False)


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


def _place(roots: Sequence[str], path: str) -> Place:
    """Where the canonical `path` lies in the roots; refused as outside before anything is opened."""
    place = place_under(roots, canonical(path))
    if place is None:
        raise _outside(path)
    return place


def _changed_since(path: str) -> AgentFileError:
    return AgentFileError("invalid_params", f"{path!r} changed since the agent wrote it; not reverted")


def _changed_while_opening(path: str) -> AgentFileError:
    return AgentFileError("invalid_params", f"{path!r} changed while being opened")


def _retrying(attempt: Callable[[], T], refusal: AgentFileError) -> T:
    """`attempt()`, run again from the start when the tree changed under it; `refusal` after RETRIES."""
    for _ in range(RETRIES):
        try:
            return attempt()
        except Changed:
            continue
    raise refusal


def _read_opened(fd: int, info: os.stat_result, shown: str) -> bytes:
    """An opened regular file's bytes, at most MAX_READ_BYTES (a larger one is refused unread); closes
    `fd`."""
    try:
        if info.st_size > MAX_READ_BYTES:
            raise AgentFileError(
                "invalid_params",
                f"{shown!r} is {info.st_size} bytes; files over {MAX_READ_BYTES // (1024 * 1024)} MiB "
                "are not read",
            )
        data, more = read_at_most(fd, MAX_READ_BYTES)
    except OSError as exc:
        raise AgentFileError("internal", f"cannot read {shown!r}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if more:
        raise AgentFileError("invalid_params", f"{shown!r} grew past the read limit while reading")
    return data


def _read_place(place: Place) -> bytes:
    """The file's bytes, every folder on the way walked without symlinks (Changed passes to a retry)."""
    try:
        fd, info = open_regular_beneath(place)
    except (FileNotFoundError, NotADirectoryError):  # missing, or a path through a file
        raise AgentFileError("resource_not_found", f"{place.path!r} does not exist") from None
    except NotRegular:
        raise AgentFileError("invalid_params", f"{place.path!r} is not a regular file") from None
    except OSError as exc:
        raise AgentFileError("internal", f"cannot open {place.path!r}: {exc.strerror}") from None
    return _read_opened(fd, info, place.path)


def current_at(parent: Dir, name: str, shown: str) -> tuple[bytes | None, int]:
    """The bytes of `name` in the verified `parent` and its permission bits; (None, the default mode)
    when there is no such file yet. A symlink there raises Changed (the canonical path had none)."""
    try:
        fd, info = open_regular_at(parent, name)
    except FileNotFoundError:
        return None, default_file_mode()
    except NotRegular:
        raise AgentFileError("invalid_params", f"{shown!r} is not a regular file") from None
    except OSError as exc:
        raise AgentFileError("internal", f"cannot open {shown!r}: {exc.strerror}") from None
    return _read_opened(fd, info, shown), stat.S_IMODE(info.st_mode)


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
        roots = self._roots(roots)
        place, data = _retrying(lambda: self._read_once(roots, path), _changed_while_opening(path))
        text = data.decode("utf-8", errors="replace")
        self._remember_read(session_key, place.path, text)
        if line is None and limit is None:
            return text
        start = (line or 1) - 1
        lines = split_lines(text)
        return "".join(lines[start : start + limit if limit is not None else None])

    @staticmethod
    def _read_once(roots: list[str], path: str) -> tuple[Place, bytes]:
        place = _place(roots, path)
        return place, _read_place(place)

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
        roots = self._roots(roots)
        place, before_bytes = _retrying(
            lambda: self._write_once(roots, path, data), _changed_while_opening(path)
        )
        target = place.path
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
            place,
        )

    @staticmethod
    def _write_once(roots: list[str], path: str, data: bytes) -> tuple[Place, bytes | None]:
        """One walk to the file's folder and the replace in it; (where, the bytes it replaced)."""
        place = AgentFiles._write_place(roots, path)
        try:
            with open_dir(place.root, place.parts[:-1]) as parent:
                name = place.parts[-1]
                before, mode = current_at(parent, name, path)
                replace_atomically(parent, name, data, mode)
        except (FileNotFoundError, NotADirectoryError) as exc:
            raise AgentFileError("resource_not_found", f"cannot write {path!r}: {exc.strerror}") from None
        except OSError as exc:
            raise AgentFileError("internal", f"cannot write {path!r}: {exc.strerror}") from None
        return place, before

    @staticmethod
    def _write_place(roots: list[str], path: str) -> Place:
        """The canonical file to replace: its folder inside the roots, and the name itself followed only
        when it is a symlink that stays inside (a guide: the walk checks it again)."""
        name = os.path.basename(path)
        if name in ("", ".", ".."):
            raise AgentFileError("invalid_params", f"{path!r} does not name a file")
        _place(roots, os.path.dirname(path))
        place = _place(roots, path)
        if not place.parts:
            raise AgentFileError("invalid_params", f"{path!r} is not a regular file")
        return place

    @staticmethod
    def _roots(roots: list[str]) -> list[str]:
        """The roots made canonical; one that cannot be (it is changing right now) grants nothing."""
        canonical_roots = []
        for root in roots:
            if isinstance(root, str) and os.path.isabs(root) and "\x00" not in root:
                with contextlib.suppress(Changed):
                    canonical_roots.append(canonical(root))
        return canonical_roots

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
        place = change.place or Place(os.path.dirname(change.path), (os.path.basename(change.path),))
        try:
            _retrying(lambda: self._revert_once(place, change), _changed_since(change.path))
        except (FileNotFoundError, NotADirectoryError):  # its folder is gone: it changed since
            raise _changed_since(change.path) from None
        except OSError as exc:
            raise AgentFileError("internal", f"cannot revert {change.path!r}: {exc.strerror}") from None
        del turn[key]

    @staticmethod
    def _revert_once(place: Place, change: FileChange) -> None:
        """In the folder the agent wrote to, walked the same verified way: check, then restore."""
        with open_dir(place.root, place.parts[:-1]) as parent:
            name = place.parts[-1]
            current, mode = current_at(parent, name, change.path)
            if current != change.after.encode("utf-8"):
                raise _changed_since(change.path)
            if change.before is None:
                parent.unlink(name)
                return
            original = change.before_bytes if change.before_bytes is not None else change.before.encode()
            replace_atomically(parent, name, original, mode)

    @staticmethod
    def diff(change: FileChange) -> str:
        """Unified diff of what the agent based its edit on (its last read, else the old file) vs now."""
        base = change.read_base if change.read_base is not None else change.before
        return unified_diff(base, change.after, change.path)

    def forget_change(self, session_key: str, turn_id: str, path: str) -> None:
        """Stop listing a write of the turn (the user acted on the file another way)."""
        turn = self._changes.get(session_key, {}).get(turn_id, {})
        turn.pop(path, None)
        turn.pop(os.path.realpath(path), None)

    def forget_session(self, session_key: str) -> None:
        """Drop everything recorded for a session (it was closed)."""
        self._changes.pop(session_key, None)
        for read_key in [k for k in self._reads if k[0] == session_key]:
            self._read_chars -= len(self._reads.pop(read_key))
