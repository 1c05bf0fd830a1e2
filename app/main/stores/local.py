"""The local stores of what the user owns: drafts and queued messages per session (kept across session
switches, agent crashes and restarts), local session renames, pinned chats and cached previews, each a
`JsonMap` in the data folder (its file handling: json_map.py)."""

from __future__ import annotations

from pathlib import Path

from app.main.core import paths
from app.main.core.problems import LocalProblems
from app.main.stores.json_map import JsonMap, check_folder
from app.main.stores.queued_messages import QueuedMessages
from app.main.stores.view_state import ViewStates


class JsonStringMap(JsonMap[str]):
    """A persisted str -> str map (drafts, session names, previews)."""

    def accept(self, value: object) -> str | None:
        return value if isinstance(value, str) else None

    def get(self, key: str, default: str = "") -> str:
        return self._data.get(key, default)


def draft_store(base: Path | None = None, problems: LocalProblems | None = None) -> JsonStringMap:
    return JsonStringMap("drafts.json", base, problems, "drafts")


def session_names(base: Path | None = None, problems: LocalProblems | None = None) -> JsonStringMap:
    return JsonStringMap("session-names.json", base, problems, "session names")


def session_pins(base: Path | None = None, problems: LocalProblems | None = None) -> JsonStringMap:
    """The chats the user pinned to the top of the sidebar (each key's value: when it was pinned)."""
    return JsonStringMap("session-pins.json", base, problems, "pinned chats")


def session_archive(base: Path | None = None, problems: LocalProblems | None = None) -> JsonStringMap:
    """The chats the user archived out of the sidebar's list (each key's value: when it was archived)."""
    return JsonStringMap("session-archive.json", base, problems, "archived chats")


def session_previews(base: Path | None = None, problems: LocalProblems | None = None) -> JsonStringMap:
    """The first user text this app sent to or loaded from each session (its cached summary)."""
    return JsonStringMap("session-previews.json", base, problems, "session previews")


class LocalStores:
    """The local stores as the host API offers them (contract: LocalStores), in one data folder;
    what is wrong with their files goes to `problems`."""

    def __init__(
        self, base: Path | None = None, problems: LocalProblems | None = None, views: ViewStates | None = None
    ) -> None:
        folder = base or paths.data_dir()
        problems = LocalProblems() if problems is None else problems
        check_folder(folder, problems)
        self.drafts = draft_store(folder, problems)
        self.names = session_names(folder, problems)
        self.previews = session_previews(folder, problems)
        self.pins = session_pins(folder, problems)
        self.archived = session_archive(folder, problems)
        self.queues = QueuedMessages(folder, problems)
        self.views = views if views is not None else ViewStates(folder, problems)
