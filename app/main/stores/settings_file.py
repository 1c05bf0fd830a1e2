"""The settings the user changes in the app (Settings, Ctrl+,), kept in the user's config file under
"appearance" and "notifications" beside everything else in it. Read with the rest of the config (each
wrong value named, its default used); written only from Settings, only when the file can be read as a
JSON object (an unreadable file is never overwritten: the change then lasts until the app quits and the
user is told why), keeping every other key, through a temporary file renamed into place."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.contract.appearance import ACCENTS
from app.contract.local_stores import LocalProblem
from app.main.core.json_files import Unusable, json_kind, parse_object
from app.main.core.paths import shown
from app.main.files.atomic import replace_file
from app.main.files.regular_files import read_user_file

KEY = "appearance"
NOTIFICATIONS_KEY = "notifications"
FOLDERS_KEY = "additionalDirectories"  # folders the agents may use beside each chat's own
MAX_FOLDERS = 32
PORT_KEY = "terminalToolsPort"  # the terminal tools' loopback port (null: ClawQt picks one)
MIN_PORT, MAX_PORT = 1024, 65535
SEARCH_SIZE_KEY = "searchIndexMegabytes"  # the search index's bound: past it the oldest chats go first
MIN_SEARCH_MB, MAX_SEARCH_MB, DEFAULT_SEARCH_MB = 16, 1_000_000, 2048
COLOR_SCHEMES = ("system", "light", "dark")
MIN_FONT_SCALE, MAX_FONT_SCALE = 0.75, 2.0  # what a text-size setting may be (the window offers 85-150%)
FIELDS = {
    "colorScheme": "color_scheme",
    "fontScale": "font_scale",
    "reducedMotion": "reduced_motion",
    "accent": "accent",
}


@dataclass(frozen=True)
class Appearance:
    color_scheme: str = "system"  # "system" follows the desktop
    font_scale: float = 1.0  # every text of the window, relative to the desktop's font
    reduced_motion: bool = False
    accent: str = ACCENTS[0]  # the colour of primary buttons, focus and selection

    def as_dict(self) -> dict[str, Any]:
        return {key: getattr(self, name) for key, name in FIELDS.items()}


@dataclass(frozen=True)
class Notifications:
    desktop: bool = True  # a tray message or the window's alert when an agent waits while ClawQt is away
    dailyTokens: int = 0  # a day's token budget: warned at WARN_AT of it and past it (0: none)

    def as_dict(self) -> dict[str, Any]:
        return {"desktop": self.desktop, "dailyTokens": self.dailyTokens}


MAX_DAILY_TOKENS = 10**12


async def _off_thread(function: Callable[..., str], *args: Any) -> str:
    """A write on a worker thread. asyncio is imported here, not with the module: the config is read
    before the window's first frame, which needs no event loop yet (app/gui.py)."""
    import asyncio

    return await asyncio.to_thread(function, *args)


def folder_problem(path: object) -> str:
    """Why `path` cannot be one of the extra folders ("" when it can): an absolute path ("~" allowed)
    of a folder that exists now."""
    if not isinstance(path, str) or not path.strip():
        return "it must be a folder path"
    folder = Path(path).expanduser()
    if not folder.is_absolute():
        return f"{path} is not a full path"
    if not folder.is_dir():
        return f"there is no folder {shown(folder)}"
    return ""


def notification_problem(key: str, value: object) -> str:
    """Why `value` cannot be `notifications.<key>` ("" when it can)."""
    if key == "desktop":
        return "" if isinstance(value, bool) else "it must be true or false"
    if key == "dailyTokens":
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_DAILY_TOKENS:
            return ""
        return "it must be a whole number of tokens, 0 for none"
    return "ClawQt has no such setting"


def _usable(
    section: str,
    value: object,
    keys: Iterable[str],
    problem: Callable[[str, object], str],
    path: Path,
    problems: list[LocalProblem],
) -> dict[str, Any]:
    """A section of the config file: each usable field of `keys` taken, each wrong one named (its
    default applies); keys ClawQt does not know are left alone (a newer ClawQt may have written them)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        why = f"it must be an object of settings, not {json_kind(value)}"
        text = f'"{section}" in your config file {shown(path)} is ignored: {why}.'
        problems.append(LocalProblem(text, "", str(path)))
        return {}
    kept: dict[str, Any] = {}
    for key in keys:
        if key not in value:
            continue
        why = problem(key, value[key])
        if why:
            text = f'"{section}.{key}" in your config file {shown(path)} is ignored: {why}.'
            problems.append(LocalProblem(text, "", str(path)))
        else:
            kept[key] = value[key]
    return kept


def read_notifications(value: object, path: Path, problems: list[LocalProblem]) -> Notifications:
    """`notifications` of the config file, read like `appearance`."""
    keys = ("desktop", "dailyTokens")
    return Notifications(**_usable(NOTIFICATIONS_KEY, value, keys, notification_problem, path, problems))


def problem_with(key: str, value: object) -> str:
    """Why `value` cannot be `appearance.<key>` ("" when it can)."""
    if key == "colorScheme":
        return "" if value in COLOR_SCHEMES else 'it must be "system", "light" or "dark"'
    if key == "fontScale":
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and MIN_FONT_SCALE <= value <= MAX_FONT_SCALE:  # type: ignore[operator]
            return ""
        return f"it must be a number from {MIN_FONT_SCALE} to {MAX_FONT_SCALE} (1 is the desktop's size)"
    if key == "reducedMotion":
        return "" if isinstance(value, bool) else "it must be true or false"
    if key == "accent":
        return "" if value in ACCENTS else "it must be one of " + ", ".join(f'"{a}"' for a in ACCENTS)
    return "ClawQt has no such setting"


def read_appearance(value: object, path: Path, problems: list[LocalProblem]) -> Appearance:
    """`appearance` of the config file (`_usable`)."""
    kept = _usable(KEY, value, FIELDS, problem_with, path, problems)
    fields: dict[str, Any] = {FIELDS[key]: float(v) if key == "fontScale" else v for key, v in kept.items()}
    return Appearance(**fields)


class SettingsFile:
    """The `settings` host part: the settings in effect and saving a change of them."""

    def __init__(
        self,
        path: Path,
        appearance: Appearance | None = None,
        notifications: Notifications | None = None,
        folders: tuple[str, ...] = (),
        terminal_tools_port: int | None = None,
        on_folders: Callable[[list[str]], None] | None = None,
        search_megabytes: int = DEFAULT_SEARCH_MB,
    ) -> None:
        self.path = path
        self._port = terminal_tools_port
        self._search_mb = search_megabytes
        self.on_search_size: Callable[[int], None] | None = None  # the index takes a new bound at once
        self._appearance = appearance or Appearance()
        self._notifications = notifications or Notifications()
        self._folders = list(folders)
        # told the folders in effect after a change (the agents' services use them at once)
        self.on_folders = on_folders

    def terminal_tools_port(self) -> int | None:
        return self._port

    async def save_terminal_tools_port(self, port: int | None) -> str:
        """The loopback port of the terminal tools from the next start on (None: ClawQt picks a free
        one, and an agent configured once must then be told the new address); "" when written."""
        if port is not None and (isinstance(port, bool) or not MIN_PORT <= port <= MAX_PORT):
            return f"The port was not changed: it must be a number from {MIN_PORT} to {MAX_PORT}."
        self._port = port
        return await _off_thread(self._write_key, PORT_KEY, port)

    def search_index_megabytes(self) -> int:
        return self._search_mb

    async def save_search_index_megabytes(self, megabytes: int) -> str:
        """The search index's bound, applied at once (past it the chats changed longest ago are
        forgotten, found again when shown) and written; "" when written, else why not."""
        if isinstance(megabytes, bool) or not MIN_SEARCH_MB <= megabytes <= MAX_SEARCH_MB:
            return f"The size was not changed: it must be {MIN_SEARCH_MB} to {MAX_SEARCH_MB:,} MB."
        self._search_mb = megabytes
        if self.on_search_size is not None:
            self.on_search_size(megabytes)
        return await _off_thread(self._write_key, SEARCH_SIZE_KEY, megabytes)

    def folders(self) -> list[str]:
        return list(self._folders)

    async def save_folders(self, folders: list[str]) -> str:
        """The extra folders the agents may use (`additionalDirectories`): each checked (a folder that
        exists), applied at once to every agent (new chats are opened with them; a folder taken away
        is out of reach at once) and written; "" when written, else why not."""
        if len(folders) > MAX_FOLDERS:
            return f"At most {MAX_FOLDERS} extra folders can be given; nothing was changed."
        for folder in folders:
            why = folder_problem(folder)
            if why:
                return f"The folders were not changed: {why}."
        normal = list(dict.fromkeys(str(Path(f).expanduser()) for f in folders))
        self._folders = normal
        if self.on_folders is not None:
            self.on_folders(normal)
        return await _off_thread(self._write_key, FOLDERS_KEY, normal)

    def appearance(self) -> dict[str, Any]:
        return self._appearance.as_dict()

    def notifications(self) -> dict[str, Any]:
        return self._notifications.as_dict()

    async def save_notifications(self, changes: dict[str, Any]) -> str:
        """Like `save_appearance`, for {"desktop": bool}."""
        refused = _refusal(changes, notification_problem)
        if refused:
            return refused
        self._notifications = replace(self._notifications, **changes)
        return await _off_thread(self._write, NOTIFICATIONS_KEY, changes)

    def location(self) -> str:
        return shown(self.path)

    async def save_appearance(self, changes: dict[str, Any]) -> str:
        """Take `changes` ({"colorScheme": "dark"}, ...) and write them to the config file; "" when
        written, else the sentence saying why not (the change still holds until the app quits)."""
        refused = _refusal(changes, problem_with)
        if refused:
            return refused
        updated = self._appearance
        for key, value in changes.items():
            field_value: Any = float(value) if key == "fontScale" else value
            updated = replace(updated, **{FIELDS[key]: field_value})
        self._appearance = updated
        return await _off_thread(self._write, KEY, changes)

    def _write(self, section_key: str, changes: dict[str, Any]) -> str:
        def merge(data: dict[str, Any]) -> None:
            section = data.get(section_key)
            data[section_key] = {**(section if isinstance(section, dict) else {}), **changes}

        return self._update(merge)

    async def update(self, change: Callable[[dict[str, Any]], None]) -> str:
        """Apply `change` to the config file's object and write it (the same rules as every save:
        never into a file ClawQt cannot read); "" when written, else why not."""
        return await _off_thread(self._update, change)

    def _write_key(self, key: str, value: Any) -> str:
        return self._update(lambda data: data.__setitem__(key, value))

    def _update(self, change: Callable[[dict[str, Any]], None]) -> str:
        """Read the file, apply `change` to its object, write it back atomically; "" or why not."""
        kept = "the change applies until you quit ClawQt"
        try:
            raw = read_user_file(self.path)
        except FileNotFoundError:
            raw = b""
        except OSError as error:
            return f"Your config file {shown(self.path)} cannot be read ({error.strerror}): {kept}."
        data = parse_object(raw)
        if isinstance(data, Unusable):
            return (
                f"Your config file {shown(self.path)} {data.why}, so ClawQt does not write to it: {kept}; "
                "fix the file to keep your settings."
            )
        change(data)
        try:
            replace_file(self.path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
        except OSError as error:
            return (
                f"Your settings could not be saved to {shown(self.path)} ({error.strerror or error}): {kept}."
            )
        return ""


def _refusal(changes: dict[str, Any], problem: Callable[[str, object], str]) -> str:
    """The sentence refusing the first value its section cannot hold ("" when all can)."""
    for key, value in changes.items():
        why = problem(key, value)
        if why:
            return f'The setting "{key}" was not changed: {why}.'
    return ""
