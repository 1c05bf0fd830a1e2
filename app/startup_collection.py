"""The cyclic garbage collector is held off while the window starts, then the objects of the start
are frozen out of its reach; and the start's steps are marked for the `ui_startup` benchmark's split.

A start builds hundreds of thousands of objects (modules, classes, the QML engine's wrappers) that
live as long as the process; the collector would walk them again and again while they are made, and
every full collection afterwards would walk them once more, in the middle of a streamed reply. Frozen
(`gc.freeze`), they are never walked; what they point to is still freed by reference counting."""

from __future__ import annotations

import gc
import os
import time

MARKS = "CLAWQT_STARTUP_MARKS"  # set by bench/ui_startup.py: each step's wall time on stdout


def mark(step: str) -> None:
    """`mark <step> <wall time> <resident MB>` on stdout when the benchmark asks (nothing otherwise)."""
    if os.environ.get(MARKS):
        print(f"mark {step} {time.time():.6f} {_resident_mb():.1f}", flush=True)


def _resident_mb() -> float:
    """The process's resident memory (0 where /proc is not there)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return 0.0


def hold() -> None:
    """No cyclic collection until `release` (the window's first frame)."""
    gc.disable()


def release() -> None:
    """What the start built is out of the collector's reach from now on; collection resumes."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
