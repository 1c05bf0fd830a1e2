"""PySide asks, for every module imported after it, whether the module's text names PySide6 (its
`__feature__` switch applies only to such modules). It asks through `inspect.getsource`, which tokenizes
the file and leaves every line in `linecache` for the life of the process: a start imports a few hundred
modules, so that is megabytes kept for nothing.
`answer_from_bytes` gives PySide the same answer read from the file's bytes, keeping nothing, and lets go
of the lines PySide's own check read before it (linecache reads a file again when a traceback needs it)."""

from __future__ import annotations

import linecache
import sys
from collections.abc import Callable
from types import ModuleType

_MARK = "_clawqt_reads_bytes"


def answer_from_bytes() -> bool:
    """Replaces PySide's check once PySide is loaded (idempotent); False when this PySide has no such
    check (another version: nothing to do)."""
    feature = sys.modules.get("shibokensupport.feature")
    asks: Callable[[ModuleType], bool] | None = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or asks is None:
        return False
    if getattr(asks, _MARK, False):
        return True

    def names_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return asks(module)  # built in, compiled or frozen: PySide's own answer
        try:
            with open(path, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return asks(module)

    setattr(names_pyside, _MARK, True)
    feature._mod_uses_pyside = names_pyside  # type: ignore[attr-defined]
    for name in list(getattr(feature, "pyside_feature_dict", {})):
        path = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            linecache.cache.pop(path, None)
    return True
