"""The messages queued while a turn runs, per session, in `queued-messages.json` beside the drafts: a
queue survives an agent crash, a reconnect and a restart. A file that cannot be used is handled like the
other local stores (reported once, copied aside, never written over without a copy); a session whose
entry is not a list of well-formed messages is left out, its original kept in that copy."""

from __future__ import annotations

from pathlib import Path

from app.contract.local_stores import QueuedFile, QueuedMessage
from app.main.core.problems import LocalProblems
from app.main.stores.json_map import JsonMap

FILE_FIELDS = ("path", "name", "mime")


class QueuedMessages(JsonMap[list[QueuedMessage]]):
    entry_kind = "a list of queued messages"

    def __init__(self, base: Path | None = None, problems: LocalProblems | None = None) -> None:
        super().__init__("queued-messages.json", base, problems, "queued messages")

    def accept(self, value: object) -> list[QueuedMessage] | None:
        if not isinstance(value, list):
            return None
        messages = [_message(entry) for entry in value]
        if not messages or any(m is None for m in messages):
            return None
        return messages  # type: ignore[return-value]

    def get(self, key: str) -> list[QueuedMessage]:
        return [_copy(m) for m in self._data.get(key, [])]

    def set(self, key: str, messages: list[QueuedMessage]) -> None:
        super().set(key, [_copy(m) for m in messages])


def _message(entry: object) -> QueuedMessage | None:
    if not isinstance(entry, dict):
        return None
    text, message_id, files = entry.get("text"), entry.get("id"), entry.get("files", [])
    if not isinstance(text, str) or not isinstance(message_id, str) or not isinstance(files, list):
        return None
    checked = [_file(f) for f in files]
    if any(f is None for f in checked):
        return None
    return QueuedMessage(id=message_id, text=text, files=checked)  # type: ignore[typeddict-item]


def _file(entry: object) -> QueuedFile | None:
    if not isinstance(entry, dict) or not all(isinstance(entry.get(f), str) for f in FILE_FIELDS):
        return None
    return QueuedFile(path=entry["path"], name=entry["name"], mime=entry["mime"])


def _copy(message: QueuedMessage) -> QueuedMessage:
    """Callers get and give copies: a list the renderer changes later must not change the store."""
    return QueuedMessage(
        id=message["id"], text=message["text"], files=[QueuedFile(**f) for f in message["files"]]
    )
