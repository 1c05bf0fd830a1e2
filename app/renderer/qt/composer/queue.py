"""The messages waiting in each chat: typed while its turn runs (or before any chat is open), shown above
the composer, editable, removable, sent one by one as turns end. Every change goes to the main side's
queue store at once, so an agent crash, a reconnect or a restart loses none of them.

This object keeps the queues and the shown chat's list model; when a message goes out is the turn
controller's decision (turn.py)."""

from __future__ import annotations

import uuid
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.local_stores import QueuedFile, QueuedMessage, QueueStore
from app.renderer.qt.common.keyed_list_model import KeyedListModel


class MessageQueue(QObject):
    changed = Signal()

    def __init__(self, store: QueueStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self._key = ""  # the chat whose queue the model shows
        self.model = KeyedListModel("id", self)

    def show(self, key: str) -> None:
        """The list model follows the chat shown (`key` may be the before-any-chat key)."""
        self._key = key
        self._refresh()

    def messages(self, key: str) -> list[QueuedMessage]:
        return self._store.get(key)

    def add(self, key: str, text: str, files: list[QueuedFile]) -> QueuedMessage:
        message = QueuedMessage(id=f"queued:{uuid.uuid4()}", text=text.strip(), files=files)
        self._save(key, [*self._store.get(key), message])
        return message

    def take(self, key: str, message_id: str = "") -> QueuedMessage | None:
        """Remove and return the message `message_id` (the oldest when empty), None when there is none."""
        messages = self._store.get(key)
        index = _index(messages, message_id)
        if index is None:
            return None
        message = messages.pop(index)
        self._save(key, messages)
        return message

    def to_front(self, key: str, message_id: str) -> bool:
        """Make `message_id` the next to go out; False when it is not queued (any more)."""
        messages = self._store.get(key)
        index = _index(messages, message_id)
        if index is None:
            return False
        messages.insert(0, messages.pop(index))
        self._save(key, messages)
        return True

    def merge_into(self, old: str, new: str) -> None:
        """`old`'s queue goes after `new`'s own (the before-any-chat queue joins the chat that opens)."""
        moved = self._store.get(old)
        if moved and old != new:
            self._store.set(old, [])
            self._save(new, [*self._store.get(new), *moved])

    @Slot(str)
    def remove(self, message_id: str) -> None:
        """The user's Remove on a queued message of the chat shown."""
        self.take(self._key, message_id)

    def _save(self, key: str, messages: list[QueuedMessage]) -> None:
        self._store.set(key, messages)
        if key == self._key:
            self._refresh(messages)

    def _refresh(self, messages: list[QueuedMessage] | None = None) -> None:
        shown = self._store.get(self._key) if messages is None else messages
        self.model.apply([_entry(m) for m in shown])
        self.changed.emit()

    def texts(self) -> list[str]:
        """The shown chat's queued texts, oldest first."""
        return [m["text"] for m in self._store.get(self._key)]

    count = Property(int, lambda self: self.model.rowCount(), notify=changed)
    entries = Property(QObject, lambda self: self.model, constant=True)


def _index(messages: list[QueuedMessage], message_id: str) -> int | None:
    """Where `message_id` is (the oldest's place when empty), None when it is not there."""
    return next((i for i, m in enumerate(messages) if not message_id or m["id"] == message_id), None)


def _entry(message: QueuedMessage) -> dict[str, Any]:
    """One row of the queue as QML shows it: the first line, and the attached files by name."""
    text = message["text"]
    return {
        "id": message["id"],
        "text": text,
        "firstLine": text.split("\n", 1)[0],
        "files": len(message["files"]),
        "fileNames": ", ".join(f["name"] for f in message["files"]),
    }


def files_of(chips: list[dict[str, Any]]) -> list[QueuedFile]:
    """What a queued message keeps of the composer's chips (each file is checked again when sent)."""
    return [QueuedFile(path=c["path"], name=c["name"], mime=c["mime"]) for c in chips]
