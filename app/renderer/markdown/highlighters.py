"""Pygments lexers, built off the GUI thread for code that is still streaming.

Making a language's first lexer compiles all of its regular expressions (Python's: tens of milliseconds,
about a hundred on a slow machine): done where a streaming reply is rendered, that was the longest stall
of the window while the reply came in. A streaming code block asks `ready(lang)`, which starts the build
on the one highlighter thread, and shows its lines plain until the lexer is there. A finished block gets
its lexer from `lexer(lang)`: the build under way (only what is left of it), or built there and then.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

log = logging.getLogger(__name__)

MAX_KEPT = 64  # lexers kept (the names come from the agent's fences: an agent could send any number)

_lock = threading.Lock()
_builds: dict[str, Future[Any]] = {}
_worker: ThreadPoolExecutor | None = None


def make_lexer(lang: str) -> Any:
    """Pygments' lexer for a fence's language name; plain text for a name it does not know."""
    from pygments.lexers import TextLexer, get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(lang) if lang else TextLexer()
    except ClassNotFound:
        return TextLexer()


def _build(lang: str, future: Future[Any]) -> None:
    try:
        future.set_result(make_lexer(lang))
    except Exception:  # a broken lexer must not leave its code unrendered: plain text instead
        log.exception("building the highlighter for %r failed", lang)
        from pygments.lexers import TextLexer

        future.set_result(TextLexer())


def _build_of(lang: str, here: bool) -> Future[Any]:
    """The build of `lang`'s lexer: the one started before, or a new one (here, or on the thread)."""
    global _worker
    with _lock:
        future = _builds.get(lang)
        if future is not None:
            return future
        if len(_builds) >= MAX_KEPT:  # the oldest finished builds go (a later block builds again)
            for name in [name for name, build in _builds.items() if build.done()][: MAX_KEPT // 4]:
                del _builds[name]
        future = _builds[lang] = Future()
        if not here and _worker is None:
            _worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="highlighter")
        worker = _worker
    if here:
        _build(lang, future)
    else:
        assert worker is not None
        worker.submit(_build, lang, future)
    return future


def ready(lang: str) -> bool:
    """Whether `lang`'s lexer is built; if it is not, its build is started off this thread."""
    return _build_of(lang, here=False).done()


def lexer(lang: str) -> Any:
    """`lang`'s lexer, waiting for a build under way (its remainder) or building it now."""
    return _build_of(lang, here=True).result()
