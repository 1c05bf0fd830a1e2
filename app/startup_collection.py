"""The cyclic garbage collector is held off while the window starts, then the objects of the start
are frozen out of its reach.

A start builds hundreds of thousands of objects (modules, classes, the QML engine's wrappers) that
live as long as the process; the collector would walk them again and again while they are made, and
every full collection afterwards would walk them once more, in the middle of a streamed reply. Frozen
(`gc.freeze`), they are never walked; what they point to is still freed by reference counting."""

from __future__ import annotations

import gc


def hold() -> None:
    """No cyclic collection until `release` (the window's first frame)."""
    gc.disable()


def release() -> None:
    """What the start built is out of the collector's reach from now on; collection resumes."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
