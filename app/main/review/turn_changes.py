"""The change set of every turn, whoever made the change: the chat's folders are snapshotted before
the prompt goes out and after the turn settles; what differs between the two is the turn's (the
agent's tools, its shell commands, its `fs/write_text_file`, or anything else that ran meanwhile),
and what differs between the previous turn's end and this turn's start is the user's own.

Authority: the main side's chat service calls `before_turn` and `after_turn`; scans run on a worker
thread (a folder's first snapshot reads every file), one at a time per folder; the index is touched on
the event loop only. A scan never writes in the user's folder and never fails the turn: a folder it
cannot track is a sentence in the turn's notes."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import sqlite3
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from app.main.review.blobs import BlobStore
from app.main.review.change_sets import FileDelta, difference
from app.main.review.folder_scan import scan_folder
from app.main.review.manifest import Manifest
from app.main.review.snapshot_index import Phase, SnapshotIndex
from app.main.review.undo import undo

log = logging.getLogger(__name__)


CACHED_TURNS = 256
TOO_BIG_RECHECK_NS = 10 * 60 * 1_000_000_000  # a folder found too big to track is walked again after this

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(OrderedDict[K, V]):
    """A dict that forgets its oldest entries past `limit`."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


class TrackingOff(OSError):
    """The snapshots cannot be kept (the data folder is unusable): no change is tracked."""


@dataclass
class TurnRecord:
    """One turn's snapshots in memory while the app runs (the index holds them for later)."""

    roots: tuple[str, ...]
    before: dict[str, Manifest] = field(default_factory=dict)
    after: dict[str, Manifest] = field(default_factory=dict)


class TurnChanges:
    def __init__(self, folder: Path, own: tuple[Path, ...] = ()) -> None:
        """`folder` holds the copies and the index; `own` are ClawQt's other folders (its data, logs,
        config), never walked when a chat's folder holds them (a chat in the home folder)."""
        self.folder = folder
        self._leave_out = tuple(os.path.realpath(path) for path in (folder, *own))
        self.blobs = BlobStore(folder / "blobs")
        self._index: SnapshotIndex | None = None
        self._unusable = ""  # why the index cannot be opened
        self._latest: dict[str, Manifest] = {}
        self._ended: dict[tuple[str, str], Manifest] = {}  # (chat, root) -> its last turn's after
        self._locks: dict[str, asyncio.Lock] = {}
        self._live: dict[tuple[str, str], TurnRecord] = {}
        # (chat, turn) -> the turn's change set; (chat, turn, "outside") -> what changed before it; the
        # most recent only (the index has them all): a long session's memory stays flat
        self._deltas: BoundedCache[tuple[str, ...], list[FileDelta]] = BoundedCache(CACHED_TURNS)

    def leave_out(self, *paths: Path) -> None:
        """Files ClawQt itself writes (an agent's stderr log, a trace being recorded): never part of a
        turn's changes, wherever they are."""
        self._leave_out = (*self._leave_out, *(os.path.realpath(path) for path in paths))

    @property
    def index(self) -> SnapshotIndex:
        """Opened on first use (a start that sends no prompt never touches it); TrackingOff when the
        data folder cannot hold it (said once per turn by the chat service, never a crash)."""
        if self._index is None:
            if self._unusable:
                raise TrackingOff(self._unusable)
            try:
                self._index = SnapshotIndex(self.folder / "snapshots.sqlite")
            except (OSError, sqlite3.Error) as exc:
                self._unusable = f"ClawQt cannot keep snapshots in {self.folder}: {exc}"
                raise TrackingOff(self._unusable) from None
        return self._index

    def usable(self) -> bool:
        try:
            return self.index is not None
        except TrackingOff:
            return False

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None

    async def snapshot(self, root: str) -> Manifest:
        """The folder as it is now (the next scan's base too)."""
        lock = self._locks.setdefault(root, asyncio.Lock())
        async with lock:
            previous = self._latest.get(root) or self.index.latest(root)
            if (
                previous is not None
                and previous.notes.too_big
                and time.time_ns() - previous.started_ns < TOO_BIG_RECHECK_NS
            ):  # walking 100,000 files only to say so again: the verdict stands for a while
                return previous
            manifest = await asyncio.to_thread(scan_folder, root, previous, self.blobs, self._leave_out)
            self._latest[root] = manifest
            return manifest

    async def _take(self, chat: str, turn: str, phase: Phase, roots: tuple[str, ...]) -> dict[str, Manifest]:
        taken = {}
        for root in roots:
            manifest = await self.snapshot(root)
            self.index.add(chat, turn, phase, manifest)
            taken[root] = manifest
        return taken

    async def before_turn(self, chat: str, turn: str, roots: list[str]) -> None:
        """Snapshot the folders the turn may change (canonical, each once) before its prompt is sent."""
        unique = tuple(dict.fromkeys(os.path.realpath(root) for root in roots))
        record = self._live[(chat, turn)] = TurnRecord(unique)
        try:
            record.before = await self._take(chat, turn, "before", unique)
        except BaseException:
            del self._live[(chat, turn)]  # untracked: the turn's end has nothing to compare
            raise
        outside = self._outside(chat, turn, record.before)
        self._deltas[(chat, turn, "outside")] = outside
        self.index.note_outside(chat, turn, outside)

    def _outside(self, chat: str, turn: str, before: dict[str, Manifest]) -> list[FileDelta]:
        """What changed since the chat's previous turn ended and before this one began: the user's
        edits, or anything else that ran outside this chat."""
        found = []
        for root, now in before.items():
            previous = self._ended.get((chat, root)) or self.index.previous_after(chat, turn, root)
            if previous is not None:
                found += difference(previous, now)
        return found

    def outside(self, chat: str, turn: str) -> list[FileDelta]:
        """What changed outside the chat between its previous turn and `turn` (from the index after a
        restart)."""
        key = (chat, turn, "outside")
        if not self.usable():
            return []
        if key not in self._deltas:
            stored = self.index.deltas(chat, turn, "outside")
            if stored is None:  # kept before change sets were stored: from the snapshots
                before = self.index.of_turn(chat, turn, "before")
                stored = self._outside(chat, turn, before) if before else []
            self._deltas[key] = stored
        return self._deltas[key]

    def outside_turns(self, chat: str) -> list[str]:
        """The chat's turns before which something outside it changed files."""
        return self.index.outside_turns(chat) if self.usable() else []

    async def after_turn(self, chat: str, turn: str) -> list[FileDelta]:
        """Snapshot them again once the turn settled; the turn's change set."""
        record = self._live.pop((chat, turn), None)
        if record is None:
            return []
        record.after = await self._take(chat, turn, "after", record.roots)
        for root, manifest in record.after.items():
            self._ended[(chat, root)] = manifest
        deltas = [
            delta for root in record.roots for delta in difference(record.before[root], record.after[root])
        ]
        self._deltas[(chat, turn)] = deltas
        self.index.settle(chat, turn, deltas)
        return deltas

    def changes(self, chat: str, turn: str) -> list[FileDelta]:
        """The turn's change set less what the user undid (from the index after a restart); [] while
        the turn runs or when its folders were not tracked."""
        key = (chat, turn)
        if not self.usable():
            return []
        if key not in self._deltas:
            if key in self._live:
                return []
            stored = self.index.deltas(chat, turn, "turn")
            if stored is None:  # kept before change sets were stored: from the snapshots
                before = self.index.of_turn(chat, turn, "before")
                after = self.index.of_turn(chat, turn, "after")
                stored = [
                    d for root in before if root in after for d in difference(before[root], after[root])
                ]
            self._deltas[key] = stored
        undone = self.index.undone(chat, turn)
        adjusted = self.index.adjusted(chat, turn)
        return [
            _adjusted(delta, adjusted.get((delta.root, delta.path)))
            for delta in self._deltas[key]
            if (delta.root, delta.path) not in undone
        ]

    def turns(self, chat: str) -> list[str]:
        """The chat's turns that changed files, oldest first."""
        if not self.usable():
            return []
        return [turn for turn in self.index.turns(chat) if self.changes(chat, turn)]

    def find(self, chat: str, turn: str, absolute: str) -> FileDelta | None:
        """The turn's change to the file at `absolute` (canonical), if it has one."""
        for delta in self.changes(chat, turn):
            if os.path.join(delta.root, *delta.path.split("/")) == absolute:
                return delta
        return None

    def mark_undone(self, chat: str, turn: str, absolute: str) -> None:
        """The file at `absolute` was put back another way (the agent's `fs/*` write reverted)."""
        delta = self.find(chat, turn, absolute)
        if delta is not None:
            self.index.mark_undone(chat, turn, delta.root, delta.path)

    def undo_now(self, chat: str, turn: str, delta: FileDelta) -> None:
        """Put the file back as it was before the turn (UndoRefused, with the reason); remembered.
        Bounded work (one kept file of at most MAX_KEPT_BYTES), done where the user asked."""
        undo(delta, self.blobs)
        self.index.mark_undone(chat, turn, delta.root, delta.path)

    def notes(self, chat: str, turn: str) -> list[str]:
        """What the turn's snapshots could not track, as sentences."""
        if not self.usable():
            return [self._unusable]
        after = self.index.of_turn(chat, turn, "after")
        return [sentence for manifest in after.values() for sentence in describe(manifest)]


def _adjusted(delta: FileDelta, digest: str | None) -> FileDelta:
    """The delta as it stands once the user undid some of its hunks (the file's remaining change)."""
    if digest is None or delta.after is None:
        return delta
    return dataclasses.replace(delta, after=dataclasses.replace(delta.after, digest=digest))


def describe(manifest: Manifest) -> list[str]:
    notes = manifest.notes
    if notes.too_big:
        return [notes.too_big]
    said = []
    if notes.large:
        said.append(f"Too large to keep a copy of (changes listed, not undoable): {', '.join(notes.large)}")
    if notes.unreadable:
        said.append(f"Could not be read, so not tracked: {', '.join(notes.unreadable)}")
    if notes.changing:
        said.append(f"Kept changing while ClawQt read them, so not tracked: {', '.join(notes.changing)}")
    return said
