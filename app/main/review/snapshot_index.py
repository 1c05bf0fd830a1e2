"""Where the snapshots are kept across restarts: one SQLite file beside the blob store. A snapshot is
(chat, turn, phase: "before" or "after" the turn, folder) pointing at a stored manifest; an unchanged
folder's snapshots share one manifest (identical bytes are stored once)."""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from pathlib import Path
from typing import Literal

from app.main.review.change_sets import FileDelta, decode_deltas, encode_deltas
from app.main.review.manifest import Manifest

Phase = Literal["before", "after"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS manifests (
    id INTEGER PRIMARY KEY, digest TEXT UNIQUE NOT NULL, data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY,
    chat TEXT NOT NULL,
    turn TEXT NOT NULL,
    phase TEXT NOT NULL,
    root TEXT NOT NULL,
    started_ns INTEGER NOT NULL,
    manifest INTEGER NOT NULL REFERENCES manifests(id),
    UNIQUE (chat, turn, phase, root)
);
CREATE INDEX IF NOT EXISTS snapshots_by_root ON snapshots (root, id);
CREATE TABLE IF NOT EXISTS settled (
    id INTEGER PRIMARY KEY, chat TEXT NOT NULL, turn TEXT NOT NULL, changed INTEGER NOT NULL,
    UNIQUE (chat, turn)
);
CREATE TABLE IF NOT EXISTS adjusted (
    chat TEXT NOT NULL, turn TEXT NOT NULL, root TEXT NOT NULL, path TEXT NOT NULL, digest TEXT NOT NULL,
    PRIMARY KEY (chat, turn, root, path)
);
CREATE TABLE IF NOT EXISTS kept (
    chat TEXT NOT NULL, turn TEXT NOT NULL, root TEXT NOT NULL, path TEXT NOT NULL, hunk TEXT NOT NULL,
    PRIMARY KEY (chat, turn, root, path, hunk)
);
CREATE TABLE IF NOT EXISTS outside (
    chat TEXT NOT NULL, turn TEXT NOT NULL, changed INTEGER NOT NULL, PRIMARY KEY (chat, turn)
);
CREATE TABLE IF NOT EXISTS change_sets (
    chat TEXT NOT NULL, turn TEXT NOT NULL, kind TEXT NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY (chat, turn, kind)
);
CREATE TABLE IF NOT EXISTS undone (
    chat TEXT NOT NULL, turn TEXT NOT NULL, root TEXT NOT NULL, path TEXT NOT NULL,
    PRIMARY KEY (chat, turn, root, path)
);
"""


class SnapshotIndex:
    """Used on the event loop's thread only (each call is one short transaction)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.executescript(SCHEMA)
        with contextlib.suppress(sqlite3.DatabaseError):
            self._db.execute("PRAGMA journal_mode=WAL")

    def close(self) -> None:
        self._db.close()

    def add(self, chat: str, turn: str, phase: Phase, manifest: Manifest) -> None:
        data = manifest.encode()
        digest = hashlib.sha256(data).hexdigest()
        with self._db:
            self._db.execute("INSERT OR IGNORE INTO manifests (digest, data) VALUES (?, ?)", (digest, data))
            (manifest_id,) = self._db.execute(
                "SELECT id FROM manifests WHERE digest = ?", (digest,)
            ).fetchone()
            self._db.execute(
                "INSERT OR REPLACE INTO snapshots (chat, turn, phase, root, started_ns, manifest)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (chat, turn, phase, manifest.root, manifest.started_ns, manifest_id),
            )

    def of_turn(self, chat: str, turn: str, phase: Phase) -> dict[str, Manifest]:
        """The folder snapshots of one turn's phase, by root."""
        rows = self._db.execute(
            "SELECT s.root, s.started_ns, m.data FROM snapshots s JOIN manifests m ON m.id = s.manifest"
            " WHERE s.chat = ? AND s.turn = ? AND s.phase = ?",
            (chat, turn, phase),
        ).fetchall()
        return {root: Manifest.decode(data, started) for root, started, data in rows}

    def latest(self, root: str) -> Manifest | None:
        """The newest snapshot of `root` by any chat (the next scan's base)."""
        row = self._db.execute(
            "SELECT s.started_ns, m.data FROM snapshots s JOIN manifests m ON m.id = s.manifest"
            " WHERE s.root = ? ORDER BY s.id DESC LIMIT 1",
            (root,),
        ).fetchone()
        return Manifest.decode(row[1], row[0]) if row is not None else None

    def settle(self, chat: str, turn: str, deltas: list[FileDelta]) -> None:
        """The turn's after-snapshots are all in: its change set and how many files it changed (so a
        chat shown again lists its changed turns and their changes without comparing any snapshot)."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO settled (chat, turn, changed) VALUES (?, ?, ?)",
                (chat, turn, len(deltas)),
            )
            self._keep_deltas(chat, turn, "turn", deltas)

    def _keep_deltas(self, chat: str, turn: str, kind: str, deltas: list[FileDelta]) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO change_sets VALUES (?, ?, ?, ?)",
            (chat, turn, kind, encode_deltas(deltas)),
        )

    def deltas(self, chat: str, turn: str, kind: str) -> list[FileDelta] | None:
        """A stored change set (`kind` "turn" or "outside"); None for one kept before they were stored."""
        row = self._db.execute(
            "SELECT data FROM change_sets WHERE chat = ? AND turn = ? AND kind = ?", (chat, turn, kind)
        ).fetchone()
        return decode_deltas(row[0]) if row is not None else None

    def turns(self, chat: str) -> list[str]:
        """The chat's settled turns that changed files, oldest first."""
        rows = self._db.execute(
            "SELECT turn FROM settled WHERE chat = ? AND changed > 0 ORDER BY id", (chat,)
        ).fetchall()
        return [turn for (turn,) in rows]

    def note_outside(self, chat: str, turn: str, deltas: list[FileDelta]) -> None:
        """What changed outside the chat between its previous turn and this one, and how many files."""
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO outside VALUES (?, ?, ?)", (chat, turn, len(deltas)))
            self._keep_deltas(chat, turn, "outside", deltas)

    def outside_turns(self, chat: str) -> list[str]:
        rows = self._db.execute("SELECT turn FROM outside WHERE chat = ? AND changed > 0", (chat,))
        return [turn for (turn,) in rows.fetchall()]

    def mark_undone(self, chat: str, turn: str, root: str, path: str) -> None:
        with self._db:
            self._db.execute("INSERT OR IGNORE INTO undone VALUES (?, ?, ?, ?)", (chat, turn, root, path))

    def undone(self, chat: str, turn: str) -> set[tuple[str, str]]:
        """(root, path) of the turn's changes the user undid."""
        rows = self._db.execute("SELECT root, path FROM undone WHERE chat = ? AND turn = ?", (chat, turn))
        return {(root, path) for root, path in rows.fetchall()}

    def adjust(self, chat: str, turn: str, root: str, path: str, digest: str) -> None:
        """What the turn left in the file, less the hunks the user undid (the copy under `digest`)."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO adjusted VALUES (?, ?, ?, ?, ?)", (chat, turn, root, path, digest)
            )

    def adjusted(self, chat: str, turn: str) -> dict[tuple[str, str], str]:
        rows = self._db.execute(
            "SELECT root, path, digest FROM adjusted WHERE chat = ? AND turn = ?", (chat, turn)
        )
        return {(root, path): digest for root, path, digest in rows.fetchall()}

    def keep(self, chat: str, turn: str, root: str, path: str, hunks: list[str]) -> None:
        with self._db:
            self._db.executemany(
                "INSERT OR IGNORE INTO kept VALUES (?, ?, ?, ?, ?)",
                [(chat, turn, root, path, h) for h in hunks],
            )

    def kept(self, chat: str, turn: str) -> set[tuple[str, str, str]]:
        """(root, path, hunk id) the user kept."""
        rows = self._db.execute("SELECT root, path, hunk FROM kept WHERE chat = ? AND turn = ?", (chat, turn))
        return {(root, path, hunk) for root, path, hunk in rows.fetchall()}

    def previous_after(self, chat: str, turn: str, root: str) -> Manifest | None:
        """The snapshot of `root` at the end of the chat's turn before `turn` (what the user may have
        changed since is between it and `turn`'s before)."""
        row = self._db.execute(
            "SELECT s.started_ns, m.data FROM snapshots s JOIN manifests m ON m.id = s.manifest"
            " WHERE s.chat = ? AND s.root = ? AND s.phase = 'after' AND s.id < ("
            "   SELECT id FROM snapshots WHERE chat = ? AND turn = ? AND phase = 'before' AND root = ?)"
            " ORDER BY s.id DESC LIMIT 1",
            (chat, root, chat, turn, root),
        ).fetchone()
        return Manifest.decode(row[1], row[0]) if row is not None else None
