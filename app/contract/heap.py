"""Handing freed heap pages back to the system: a long history loaded, shown or indexed frees most of
what it built, and glibc keeps freed pages in its arenas (one per thread) until told otherwise."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable


@functools.cache
def malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim` (well under a millisecond after a 2,000-turn chat), or None where there is
    no such call (not Linux, or another C library such as musl)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        trim: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


def trim_heap() -> None:
    """Freed pages of every arena back to the system, where the C library can do it."""
    trim = malloc_trim()
    if trim is not None:
        trim(0)
