"""Terminal profiles: the shells a terminal may open with, by name.

A profile names one of the user's login shells as the system lists them in /etc/shells (by the last
part of its path: `bash`, `zsh`, `fish`, `sh`); the empty name is the user's own shell ($SHELL). A
proposal's `profile` can therefore only pick a program the system already offers as a shell, never
a path or a command of the agent's choosing; a name that is none of them opens the user's own shell,
and the card says so before the user confirms.
"""

from __future__ import annotations

import os
import sys

from app.main.files.regular_files import read_user_file

SHELLS_FILE = "/etc/shells"
MAX_SHELLS_BYTES = 64 * 1024


def default_shell() -> list[str]:
    """The user's login shell as an interactive shell (COMSPEC on Windows)."""
    if sys.platform == "win32":  # pragma: no cover - no Windows machine runs the tests yet
        return [os.environ.get("COMSPEC", "cmd.exe")]
    return [os.environ.get("SHELL") or "/bin/sh"]


def system_shells(path: str = SHELLS_FILE) -> dict[str, str]:
    """The login shells the system lists that exist and may be run, by name (the first listed path
    of a name wins); empty when the list cannot be read."""
    try:
        text = read_user_file(path, MAX_SHELLS_BYTES).decode("utf-8", "replace")
    except OSError:
        return {}
    shells: dict[str, str] = {}
    for line in text.splitlines():
        entry = line.split("#", 1)[0].strip()
        name = os.path.basename(entry)
        if not entry.startswith("/") or not name or name in shells:
            continue
        if os.path.isfile(entry) and os.access(entry, os.X_OK):
            shells[name] = entry
    return shells


class TerminalProfiles:
    """The user's own shell and the system's login shells by name (read once, when first asked)."""

    def __init__(self, shell: list[str] | None = None) -> None:
        self.default = list(shell or default_shell())
        self._shells: dict[str, str] | None = None

    def has(self, name: str) -> bool:
        if self._shells is None:
            self._shells = system_shells()
        return name in self._shells

    def resolve(self, name: str) -> tuple[list[str], str]:
        """(argv, shell name) a terminal of profile `name` runs: that login shell, else the user's own."""
        if name and self.has(name):
            assert self._shells is not None
            return [self._shells[name]], name
        return list(self.default), os.path.basename(self.default[0])
