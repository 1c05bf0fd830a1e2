"""Opening and reading a file that must be a regular file, safely, for every main-side reader (the
agent's fs/read_text_file and the attachment previews): the open neither blocks on a FIFO nor follows
a symlink swapped in after the path was checked, the opened descriptor is checked again, and reads are
bounded whatever the file claims its size is. `open_regular` opens by path, so only the last component
is never followed; a file that must stay below a root is opened through `confined_open.py` instead
(the same flags, every folder on the way walked without following a symlink)."""

from __future__ import annotations

import errno
import os
import stat

OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in after the check must not block the open
    | getattr(os, "O_NOFOLLOW", 0)  # nor a symlink swapped in after resolving
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
READ_STEP = 1024 * 1024


class NotRegular(Exception):
    """The opened file is not a regular file (or not the one checked before opening)."""


def open_regular(path: str, same_as: os.stat_result | None = None) -> int:
    """A read-only descriptor of `path`, which must be a regular file (and, given `same_as`, that very
    file); raises NotRegular, or OSError from the open itself. The caller closes it."""
    fd = os.open(path, OPEN_FLAGS)
    try:
        opened = os.fstat(fd)
        same = same_as is None or (opened.st_dev, opened.st_ino) == (same_as.st_dev, same_as.st_ino)
        if not stat.S_ISREG(opened.st_mode) or not same:
            raise NotRegular(path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_at_most(fd: int, limit: int) -> tuple[bytes, bool]:
    """At most `limit` bytes, and whether there was more (one byte past the limit is read to know)."""
    chunks: list[bytes] = []
    left = limit + 1
    while left > 0:
        chunk = os.read(fd, min(left, READ_STEP))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    data = b"".join(chunks)
    return data[:limit], len(data) > limit


MAX_USER_FILE_BYTES = 32 * 1024 * 1024  # far above any config or store ClawQt writes
FOLLOWING_FLAGS = OPEN_FLAGS & ~getattr(os, "O_NOFOLLOW", 0)


def read_user_file(path: str | os.PathLike[str], limit: int = MAX_USER_FILE_BYTES) -> bytes:
    """The bytes of one of the user's own files (the config, a local store, a token file): a symlink
    is followed (dotfiles are often links) but only to a regular file, and never more than `limit`
    bytes, so a FIFO, a device such as /dev/zero, a folder or a huge file in its place is an OSError
    whose `strerror` says why, never a hang or an endless read."""
    fd = os.open(path, FOLLOWING_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
        data, more = read_at_most(fd, limit)
    finally:
        os.close(fd)
    if more:
        raise OSError(errno.EFBIG, f"larger than {_size(limit)}", os.fspath(path))
    return data


def _size(limit: int) -> str:
    return f"{limit / (1024 * 1024):g} MiB" if limit >= 1024 * 1024 else f"{limit / 1024:g} KiB"
