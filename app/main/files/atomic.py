"""The one way ClawQt replaces a file it owns or the user chose (a setting, a remembered store, an export):
a temporary file beside it, written, fsynced, given its permission bits and renamed over it
(`confined_open.replace_atomically`). Readers see the old file or the new one, never half of either;
on any failure no temporary file is left and the file is untouched. The agent's own writes take the
same step inside their confined folder (`agent_files.py`)."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from app.main.files.confined_open import DIR_FD, Dir, replace_atomically

PRIVATE = 0o600  # a file only the user reads: settings, stores, secrets' index


def atomic_write_text(path: str, text: str, mode: int) -> None:
    """Write `text` (UTF-8) to `path` atomically with permission bits `mode`."""
    atomic_write_bytes(path, text.encode("utf-8"), mode)


def atomic_write_bytes(path: str, data: bytes, mode: int, durable: bool = True) -> None:
    """`replace_atomically` by path, for a folder the caller trusts (no confinement): readers see the old
    file or the new one, never half of one; on any failure no temp file is left and `path` is untouched."""
    directory = os.path.dirname(path) or os.curdir
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) if DIR_FD else None
    with Dir(fd, directory) as parent:
        replace_atomically(parent, os.path.basename(path), data, mode, durable)


def default_file_mode() -> int:
    """0o666 & ~umask, read without changing the umask where the system tells it (another thread could
    create a file in between)."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
        for row in status:
            if row.startswith("Umask:"):
                return 0o666 & ~int(row.split()[1], 8)
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def replace_file(path: Path, data: bytes, new_mode: int = PRIVATE) -> None:
    """`path` replaced by `data` atomically, its folder made first; an existing file keeps its
    permission bits, a new one gets `new_mode`. Raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = new_mode
    atomic_write_bytes(str(path), data, mode)
