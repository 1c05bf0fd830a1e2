"""Opening, creating and replacing files beneath a verified folder, immune to a swap between check and use.

Why: checking a resolved path and then using it by name is a race: a folder swapped for a symlink in
between sends the open, the temp file and the rename somewhere else. Here a path is
walked one component at a time, each opened relative to the descriptor of its parent with `O_NOFOLLOW`
(and `O_DIRECTORY` for folders), starting at the root's own descriptor. The kernel never follows a
symlink on the way, so what is opened is the object at that canonical name below the root at the
moment it was opened, whatever happens to the tree meanwhile; a later temp file and rename happen in
the very folder that was verified (through its descriptor), never by path.

Symlinks (decided): the caller's path is first made canonical with `realpath` (so a link inside the
root pointing inside still works, and one pointing out is outside); the canonical names are then walked
with no symlink allowed. `realpath` only guides: a symlink met on the walk means the tree changed since,
and raises `Changed`, after which the caller may start again from its original path (a bounded number of
times). `..` never reaches the walk (canonical paths have none; a name that is `..`, `.`, empty or holds
a separator is refused outright).

Trusted: the roots themselves (the user chose them) are opened by path, only their last component with
`O_NOFOLLOW`; a folder moved away after it was verified is still the one used (the agent could equally
move the file after the write); hard links are names like any other.

Platform: needs `dir_fd` for os.open/os.stat/os.rename/os.unlink and `O_DIRECTORY`/`O_NOFOLLOW` (Linux,
macOS, the BSDs: `DIR_FD`). Without them (Windows: `os.supports_dir_fd` lacks os.open) a `Dir` holds a
path instead and re-checks each name with `lstat` before using it: the same rules, but the window
between check and use is only narrowed, not closed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Sequence
from dataclasses import dataclass

from app.main.core.paths import within
from app.main.files.regular_files import OPEN_FLAGS, NotRegular

DIR_FD = (
    all(call in os.supports_dir_fd for call in (os.open, os.stat, os.rename, os.unlink))
    and hasattr(os, "O_DIRECTORY")
    and hasattr(os, "O_NOFOLLOW")
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC
TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | getattr(os, "O_BINARY", 0)
TEMP_PREFIX = ".clawqt-"
_TEMP_ATTEMPTS = 100
# what an open with O_NOFOLLOW (and O_DIRECTORY) fails with on a symlink or a non-folder (EMLINK: BSDs)
_MAYBE_LINK = {errno.ELOOP, errno.ENOTDIR, errno.EMLINK}


class Changed(Exception):
    """The tree changed under the walk: a symlink where the canonical path had none, or the opened file
    is not the one just checked. Starting again from the original path is safe."""


@dataclass(frozen=True)
class Place:
    """A canonical path split at the canonical root it lies in: the names below `root` (none: the root)."""

    root: str
    parts: tuple[str, ...]

    @property
    def path(self) -> str:
        return os.path.join(self.root, *self.parts)


def place_under(roots: Sequence[str], real: str) -> Place | None:
    """Where the canonical `real` lies below the innermost of the canonical `roots` containing it (the
    shortest walk), or None when it is inside none of them."""
    for root in sorted(roots, key=len, reverse=True):
        if within(real, root):
            relative = os.path.relpath(real, root)
            return Place(root, () if relative == os.curdir else tuple(relative.split(os.sep)))
    return None


def canonical(path: str) -> str:
    """`realpath`, with its own race (an entry swapped between its lstat and readlink) as `Changed`."""
    try:
        return os.path.realpath(path)
    except OSError as exc:
        raise Changed(f"{path!r} changed while being resolved: {exc.strerror}") from None


def _check_name(name: str) -> None:
    separators = {os.sep, os.altsep or os.sep, "\x00"}
    if name in ("", os.curdir, os.pardir) or any(ch in separators for ch in name):
        raise ValueError(f"not a single path component: {name!r}")


class Dir:
    """A folder verified by the walk that reached it. It holds the folder's descriptor, so each name is
    looked up in that very folder wherever it is now; without dir_fd support it holds the path."""

    def __init__(self, fd: int | None, path: str) -> None:
        self.fd = fd
        self.path = path  # for messages (and the fallback); never used to reach the folder when fd is set

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> Dir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def lstat(self, name: str) -> os.stat_result:
        _check_name(name)
        if self.fd is None:
            return os.lstat(os.path.join(self.path, name))
        return os.stat(name, dir_fd=self.fd, follow_symlinks=False)

    def open(self, name: str, flags: int, mode: int = 0o777) -> int:
        _check_name(name)
        if self.fd is None:
            return os.open(os.path.join(self.path, name), flags, mode)
        return os.open(name, flags, mode, dir_fd=self.fd)

    def child(self, name: str) -> Dir:
        """The sub-folder `name`, never through a symlink (`Changed`); NotADirectoryError for a file."""
        if self.fd is None:
            self._require_folder(name)
            return Dir(None, os.path.join(self.path, name))
        try:
            fd = self.open(name, DIR_FLAGS)
        except OSError as exc:
            if exc.errno in _MAYBE_LINK:
                self._require_folder(name)  # a symlink or a file; a folder now means it just changed
                raise Changed(f"{os.path.join(self.path, name)!r} changed while being opened") from None
            raise
        return Dir(fd, os.path.join(self.path, name))

    def _require_folder(self, name: str) -> None:
        info = self.lstat(name)
        if stat.S_ISLNK(info.st_mode):
            raise Changed(f"{os.path.join(self.path, name)!r} is a symlink")
        if not stat.S_ISDIR(info.st_mode):
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), os.path.join(self.path, name))

    def replace(self, source: str, target: str) -> None:
        _check_name(source)
        _check_name(target)
        if self.fd is None:
            os.replace(os.path.join(self.path, source), os.path.join(self.path, target))
        else:
            os.replace(source, target, src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def unlink(self, name: str) -> None:
        _check_name(name)
        if self.fd is None:
            os.unlink(os.path.join(self.path, name))
        else:
            os.unlink(name, dir_fd=self.fd)

    def sync(self) -> None:
        """Make a rename in this folder durable (best effort; not possible on Windows)."""
        with contextlib.suppress(OSError):
            if self.fd is not None:
                os.fsync(self.fd)


def open_root(root: str) -> Dir:
    """A root folder by its (trusted, canonical) path; its last component must not be a symlink."""
    if not DIR_FD:
        info = os.lstat(root)
        if not stat.S_ISDIR(info.st_mode) or stat.S_ISLNK(info.st_mode):
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), root)
        return Dir(None, root)
    try:
        return Dir(os.open(root, DIR_FLAGS), root)
    except OSError as exc:
        if exc.errno in _MAYBE_LINK and os.path.islink(root):
            raise Changed(f"{root!r} is a symlink") from None
        raise


def open_dir(root: str, parts: Sequence[str]) -> Dir:
    """The folder `root/parts...`, each component opened in its parent without following a symlink.
    Raises Changed (a symlink on the way), FileNotFoundError, NotADirectoryError or another OSError."""
    current = open_root(root)
    try:
        for part in parts:
            below = current.child(part)
            current.close()
            current = below
    except BaseException:
        current.close()
        raise
    return current


def open_regular_at(parent: Dir, name: str) -> tuple[int, os.stat_result]:
    """A read-only descriptor of the regular file `name` in `parent` and its fstat; the caller closes it.
    Anything else is refused before it is opened (a FIFO would block, a device stream): NotRegular; a
    symlink, or a swap between the check and the open: Changed; missing: FileNotFoundError."""
    info = parent.lstat(name)
    if stat.S_ISLNK(info.st_mode):
        raise Changed(f"{os.path.join(parent.path, name)!r} is a symlink")
    if not stat.S_ISREG(info.st_mode):
        raise NotRegular(os.path.join(parent.path, name))
    try:
        fd = parent.open(name, OPEN_FLAGS)
    except OSError as exc:
        if exc.errno in _MAYBE_LINK:
            raise Changed(f"{os.path.join(parent.path, name)!r} changed while being opened") from None
        raise
    try:
        opened = os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise
    if not stat.S_ISREG(opened.st_mode) or (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):
        os.close(fd)
        raise Changed(f"{os.path.join(parent.path, name)!r} changed while being opened")
    return fd, opened


def open_regular_beneath(place: Place) -> tuple[int, os.stat_result]:
    """`open_regular_at` for a file below a root, every folder on the way walked without symlinks."""
    if not place.parts:
        raise NotRegular(place.root)
    with open_dir(place.root, place.parts[:-1]) as parent:
        return open_regular_at(parent, place.parts[-1])


def replace_atomically(parent: Dir, name: str, data: bytes, mode: int, durable: bool = True) -> None:
    """Replace (or create) `name` in `parent` with `data` and permission bits `mode`: a temp file made in
    `parent` itself (never by path), written, fsynced, renamed over `name` within `parent`. Readers see
    the old file or the new one, never half; on any failure the temp file is gone and `name` untouched.
    `durable=False` skips the two fsyncs, for a file that is checked when read (a content-addressed copy
    whose name is its hash) and so may be lost in a power cut but never trusted half-written."""
    temp, fd = _create_temp(parent)
    try:
        try:
            _write_all(fd, data)
            if durable:
                os.fsync(fd)
            _set_mode(fd, parent, temp, mode)
        finally:
            os.close(fd)
        parent.replace(temp, name)
    except BaseException:
        with contextlib.suppress(OSError):
            parent.unlink(temp)
        raise
    if durable:
        parent.sync()


def _create_temp(parent: Dir) -> tuple[str, int]:
    for _ in range(_TEMP_ATTEMPTS):
        name = f"{TEMP_PREFIX}{secrets.token_hex(6)}.tmp"
        try:
            return name, parent.open(name, TEMP_FLAGS, 0o600)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", parent.path)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _set_mode(fd: int, parent: Dir, name: str, mode: int) -> None:
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:  # Windows before Python 3.13: by name, in the folder the temp file was made in
        os.chmod(os.path.join(parent.path, name), mode)
