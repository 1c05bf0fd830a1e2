"""What every test-suite install into `.cache/` shares: an inter-process lock (two test runs must not
install into one folder at once), clearing what an interrupted install left, and the tail of a failed
command's output for its error message."""

from __future__ import annotations

import contextlib
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def file_lock(path: Path, what: str, error: type[Exception], timeout: float) -> Iterator[None]:
    """An exclusive inter-process lock on `path` (flock on POSIX, msvcrt on Windows); `error` when
    another run holds it longer than `timeout` (it is installing `what`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        deadline = time.monotonic() + timeout
        if sys.platform == "win32":
            import msvcrt

            def try_lock() -> bool:
                handle.seek(0)
                try:
                    msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
                except OSError:
                    return False
                return True

            def unlock() -> None:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            def try_lock() -> bool:
                try:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    return False
                return True

            def unlock() -> None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

        while not try_lock():
            if time.monotonic() > deadline:
                raise error(
                    f"Timed out after {timeout:.0f} s waiting for the install lock {path} (another test "
                    f"run is installing {what}). If no other run is active, delete the lock file."
                )
            time.sleep(0.2)  # the poll's interval
        try:
            yield
        finally:
            unlock()


def remove_leftovers(cache_dir: Path) -> None:
    """Staging/trash directories left by an interrupted install (only called under the lock)."""
    for pattern in (f"{cache_dir.name}.tmp-*", f"{cache_dir.name}.old-*"):
        for leftover in cache_dir.parent.glob(pattern):
            shutil.rmtree(leftover, ignore_errors=True)


def tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])
