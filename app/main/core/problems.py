"""What is wrong with the user's own files and folders (the config file, the local stores, the data
folder), collected for the window (contract: ProblemsHost) and the log. None of these stops the app:
whoever finds one goes on with defaults or in memory and says so here, once."""

from __future__ import annotations

import logging
from collections.abc import Callable

from app.contract.local_stores import LocalProblem, ProblemListener

log = logging.getLogger(__name__)


class LocalProblems:
    def __init__(self) -> None:
        self._problems: list[LocalProblem] = []
        self._keys: set[str] = set()
        self._listeners: list[ProblemListener] = []

    def add(self, text: str, details: str = "", key: str | None = None, config_file: str = "") -> bool:
        """Report a problem unless one with the same `key` (default: the text) was reported already;
        True when it is new. A folder that cannot be written to fails every save: one report.
        `config_file`: the config file it is about (the window offers to open it)."""
        key = key or text
        if key in self._keys:
            return False
        self._keys.add(key)
        problem = LocalProblem(text, details, config_file)
        self._problems.append(problem)
        log.warning("%s%s", text, f" ({details})" if details else "")
        for listener in list(self._listeners):
            listener(problem)
        return True

    def reported(self) -> list[LocalProblem]:
        return list(self._problems)

    def subscribe(self, listener: ProblemListener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe
