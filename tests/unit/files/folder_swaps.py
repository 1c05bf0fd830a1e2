"""Swapping a folder inside a workspace for a symlink to a folder outside it, and back, as fast as renames
go, while a test runs the code under attack: from a thread of the test's process (switching every
microsecond) or from a separate process (truly in parallel, as an agent's shell would be).

The swap is two renames each way (a symlink cannot be renamed over a non-empty folder), so the folder's
name is by turns the real folder, missing, and the symlink. `ws/sub.link` must exist (a symlink to the
outside folder) before a swapper starts; `ws/sub` is the real folder again once it stops."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

# The real folder stays in place this long between swaps, so some operations get through whole (the swap
# itself is as fast as renames go; a longer dwell only makes a check just before a swap likelier).
DWELL = 50e-6
# The same four renames as `ThreadSwapper._run`, in a process of its own until the stop file appears;
# it says when it starts, and how many swaps it made when it stops.
SWAP_PROCESS = f"""
import os, sys, time
sub, hidden, link, stop = sys.argv[1:5]
swaps = 0
print("swapping", flush=True)
while not os.path.exists(stop):
    os.rename(sub, hidden); os.rename(link, sub); os.rename(sub, link); os.rename(hidden, sub)
    swaps += 1
    time.sleep({DWELL})  # the swap's dwell the test asked for
print(swaps)
"""


def _wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the swapper did not start"
        time.sleep(0.001)  # the poll's interval


class ThreadSwapper:
    """Swaps `ws/sub` (a real folder) with `ws/sub.link` (a symlink to the outside folder) and back, as
    fast as it can, until stopped."""

    def __init__(self, workspace: Path) -> None:
        self.sub, self.hidden, self.link = workspace / "sub", workspace / "sub.real", workspace / "sub.link"
        self.swaps = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            os.rename(self.sub, self.hidden)
            os.rename(self.link, self.sub)  # now `sub` points outside
            os.rename(self.sub, self.link)
            os.rename(self.hidden, self.sub)  # and it is the real folder again
            self.swaps += 1
            time.sleep(DWELL)  # the swap's dwell the test asked for

    def __enter__(self) -> ThreadSwapper:
        self._previous_interval = sys.getswitchinterval()
        # switch threads often so a swap can land between check and use (the GIL would otherwise batch
        # each thread's work into 5 ms slices)
        sys.setswitchinterval(1e-6)
        self._thread.start()
        _wait_for(lambda: self.swaps >= 10)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)
        sys.setswitchinterval(self._previous_interval)
        assert not self._thread.is_alive()


class ProcessSwapper:
    """The same swaps from a separate process, truly in parallel with the code under attack."""

    def __init__(self, workspace: Path) -> None:
        self._stop = workspace.parent / "stop-swapping"
        names = [workspace / "sub", workspace / "sub.real", workspace / "sub.link", self._stop]
        self._argv = [sys.executable, "-c", SWAP_PROCESS, *map(str, names)]
        self.swaps = 0

    def __enter__(self) -> ProcessSwapper:
        self._process = subprocess.Popen(self._argv, stdout=subprocess.PIPE, text=True)
        assert self._process.stdout is not None
        assert self._process.stdout.readline().strip() == "swapping", "the swapper did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.touch()
        try:
            out, _ = self._process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            out = ""
        finally:
            if self._process.poll() is None:
                self._process.kill()
                self._process.wait()
        self.swaps = int(out.strip() or 0)


SWAPPERS = [ThreadSwapper, ProcessSwapper]
SWAPPER_IDS = ["thread", "process"]


def prepare(workspace: Path, outside: Path) -> None:
    """`ws/sub` a real folder and `ws/sub.link` a symlink to `outside`, ready to be swapped."""
    (workspace / "sub").mkdir(parents=True, exist_ok=True)
    os.symlink(outside, workspace / "sub.link")
