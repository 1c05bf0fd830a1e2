"""The search index: every chat's messages, answers, thoughts, tool calls and their output, terminal
output shown on a card and attachment names, in one SQLite database in the data folder (`search.db`,
WAL: the window reads while the writer thread writes; another ClawQt process on the same folder waits
its turn, `busy_timeout`).

It is a cache: the chats are the truth. A database that is not one, of another schema version, or found
damaged while in use is moved aside (`search.db.corrupt-<time>`) and made again empty, with a word to
the user, and the chats fill it again as they are shown. A folder where it cannot be written keeps it in
memory for the run (said once). It is bounded (`max_bytes`): past it, the chats changed longest ago are
forgotten first.

The texts are kept compressed beside a contentless FTS5 table (the index holds no second copy of them):
a snippet is cut from the stored text of the few hits shown, not from every match (`snippets.py`)."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from app.contract.search import Chat, Facets, Filters, Hit, IndexedChat, IndexedText
from app.contract.usage import UsageChat, UsageDay
from app.main.core.problems import LocalProblems
from app.main.search import usage_ledger
from app.main.search.query import parse
from app.main.search.snippets import snippet

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
FILENAME = "search.db"
DEFAULT_MAX_BYTES = 2 * 1024**3
MAX_TEXT_CHARS = 4 * 1024 * 1024  # of one entry indexed (a 10 MB reply is found by its first 4 MB)
BUSY_TIMEOUT_MS = 5000
NO_FILTERS = Filters()

SCHEMA = """
CREATE TABLE IF NOT EXISTS chats (
    id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, agent TEXT NOT NULL, folder TEXT NOT NULL,
    title TEXT NOT NULL, updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS chats_updated ON chats (updated);
CREATE TABLE IF NOT EXISTS docs (
    id INTEGER PRIMARY KEY, chat INTEGER NOT NULL REFERENCES chats (id), item TEXT NOT NULL,
    kind TEXT NOT NULL, at REAL NOT NULL, body BLOB NOT NULL, UNIQUE (chat, item)
);
CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5 (
    text, content = '', tokenize = 'unicode61 remove_diacritics 2'
);
"""


@dataclass(frozen=True)
class Entry:
    item: str  # the timeline item (a message, a tool call...): indexed again, its text is replaced
    kind: str  # one of KINDS
    text: str
    at: float


def _pack(text: str) -> bytes:
    return zlib.compress(text.encode("utf-8"), 6)


def _unpack(body: bytes) -> str:
    return zlib.decompress(body).decode("utf-8")


class SearchIndex:
    """One connection, used under a lock: the writer thread writes, a search reads in between (each a
    short transaction)."""

    def __init__(
        self,
        folder: Path | None,
        problems: LocalProblems | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self.path = folder / FILENAME if folder is not None else None
        self.max_bytes = max_bytes
        self._problems = problems if problems is not None else LocalProblems()
        self._lock = threading.Lock()
        self.in_memory = self.path is None
        self._db = self._open()

    # --- opening, and starting again when the file is not usable ------------------------------------
    def _open(self) -> sqlite3.Connection:
        if self.path is not None and not self.in_memory:
            try:
                return self._prepare(
                    sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
                )
            except sqlite3.DatabaseError as exc:
                if _unwritable(exc) or not self.path.exists():
                    self._say_in_memory(exc)
                else:
                    self._keep_aside(exc)
                    return self._open()
        self.in_memory = True
        return self._prepare(sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None))

    def _prepare(self, db: sqlite3.Connection) -> sqlite3.Connection:
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'docs'").fetchone()[0]
            if tables and version != SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"schema version {version}, this ClawQt reads {SCHEMA_VERSION}")
            if not self.in_memory:
                db.execute("PRAGMA journal_mode = WAL")
            db.executescript(SCHEMA + usage_ledger.USAGE_SCHEMA)
            usage_ledger.add_columns(db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _keep_aside(self, why: Exception) -> None:
        assert self.path is not None
        aside = self.path.with_name(f"{FILENAME}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{self.path}{suffix}")
            if part.exists():
                part.replace(Path(f"{aside}{suffix}"))
        log.warning("search index %s unusable (%s): kept as %s", self.path, why, aside)
        self._problems.add(
            "The search index could not be read and is being made again from your chats.",
            f"{self.path}: {why}. The old file is kept as {aside}.",
        )

    def _say_in_memory(self, why: Exception) -> None:
        self._problems.add(
            "Search works only until you quit: its index cannot be written in the data folder.",
            f"{self.path}: {why}",
        )

    def _recover(self, why: sqlite3.DatabaseError) -> None:
        """Damage found while in use: start again (the caller's work is lost; the chats fill it again)."""
        self._db.close()
        if self.in_memory or self.path is None:
            self._db = self._prepare(
                sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            )
            return
        self._keep_aside(why)
        self._db = self._open()

    # --- writing ------------------------------------------------------------------------------------
    def index(self, batches: Iterable[tuple[Chat, Iterable[Entry]]]) -> None:
        """Each chat's entries, in one transaction for all of them; an item indexed again is replaced.
        A folder that stopped taking writes moves the index into memory (said once) and writes there.
        Each chat's entries are read once per attempt, one at a time (the writer's are unpacked as
        they are written)."""
        work = list(batches)
        with self._lock:
            try:
                self._write(work)
            except sqlite3.DatabaseError as exc:
                if not _unwritable(exc) or self.in_memory:
                    self._recover(exc)
                    return
                self._say_in_memory(exc)
                self._db.close()
                self.in_memory = True
                self._db = self._open()
                self._write(work)

    def _write(self, batches: list[tuple[Chat, Iterable[Entry]]]) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            for chat, entries in batches:
                chat_id = self._chat_id(chat)
                for entry in entries:
                    self._put(chat_id, entry)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self._bound()

    def _chat_id(self, chat: Chat) -> int:
        row = self._db.execute(
            "INSERT INTO chats (key, agent, folder, title, updated) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET agent = excluded.agent, folder = excluded.folder, "
            "title = excluded.title, updated = max(updated, excluded.updated) RETURNING id",
            (chat.key, chat.agent, chat.folder, chat.title, chat.updated),
        ).fetchone()
        return int(row[0])

    def _put(self, chat_id: int, entry: Entry) -> None:
        text = entry.text[:MAX_TEXT_CHARS]
        old = self._db.execute("SELECT id, body FROM docs WHERE chat = ? AND item = ?", (chat_id, entry.item))
        found = old.fetchone()
        if found is not None:
            doc_id, body = found
            if _unpack(body) == text:
                return
            self._db.execute(
                "INSERT INTO words (words, rowid, text) VALUES ('delete', ?, ?)", (doc_id, _unpack(body))
            )
            self._db.execute(
                "UPDATE docs SET kind = ?, at = ?, body = ? WHERE id = ?",
                (entry.kind, entry.at, _pack(text), doc_id),
            )
        else:
            doc_id = self._db.execute(
                "INSERT INTO docs (chat, item, kind, at, body) VALUES (?, ?, ?, ?, ?) RETURNING id",
                (chat_id, entry.item, entry.kind, entry.at, _pack(text)),
            ).fetchone()[0]
        self._db.execute("INSERT INTO words (rowid, text) VALUES (?, ?)", (doc_id, text))

    def forget(self, keys: Sequence[str]) -> None:
        """Chats deleted by the user: nothing of them stays findable."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for key in keys:
                    self._forget_chat(key)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _forget_chat(self, key: str) -> None:
        row = self._db.execute("SELECT id FROM chats WHERE key = ?", (key,)).fetchone()
        if row is None:
            return
        for doc_id, body in self._db.execute(
            "SELECT id, body FROM docs WHERE chat = ?", (row[0],)
        ).fetchall():
            self._db.execute(
                "INSERT INTO words (words, rowid, text) VALUES ('delete', ?, ?)", (doc_id, _unpack(body))
            )
        self._db.execute("DELETE FROM docs WHERE chat = ?", (row[0],))
        self._db.execute("DELETE FROM chats WHERE id = ?", (row[0],))

    def used_bytes(self) -> int:
        pages, free, size = (
            self._db.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("page_count", "freelist_count", "page_size")
        )
        return int((pages - free) * size)

    def _bound(self) -> None:
        """Past `max_bytes`, the chats changed longest ago are forgotten until a tenth is free. Words are
        forgotten in place only when the word list's segments are merged (`optimize`), which also
        packs them: merged first, then each chat counted as its stored share of the file."""
        if self.used_bytes() <= self.max_bytes:
            return
        self._db.execute("INSERT INTO words (words) VALUES ('optimize')")
        for _ in range(8):  # each round forgets at least one chat
            used = self.used_bytes()
            if used <= self.max_bytes:
                return
            excess = used - self.max_bytes * 9 // 10
            oldest = self._db.execute(
                "SELECT c.key, coalesce(sum(length(d.body)), 0) FROM chats c "
                "LEFT JOIN docs d ON d.chat = c.id GROUP BY c.id ORDER BY c.updated"
            ).fetchall()
            stored = sum(int(size) for _key, size in oldest) or 1
            freed = 0.0
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for key, size in oldest:
                    self._forget_chat(key)
                    freed += used * int(size) / stored
                    if freed >= excess:
                        break
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("INSERT INTO words (words) VALUES ('optimize')")

    # --- reading ------------------------------------------------------------------------------------
    def search(self, text: str, filters: Filters = NO_FILTERS, limit: int = 50) -> list[Hit]:
        """The newest `limit` hits for what the user typed (the last indexed first). Newest, not best:
        the word list gives its matches newest first and stops at the limit, where ranking every match
        of a common word reads all of them (0.3 ms against 300 ms on a 500-chat index)."""
        query = parse(text)
        if not query.match:
            return []
        where: list[str] = ["words MATCH ?"]
        args: list[object] = [query.match]
        for column, value in (("c.agent", filters.agent), ("c.folder", filters.folder)):
            if value:
                where.append(f"{column} = ?")
                args.append(value)
        if filters.kinds:
            where.append(f"d.kind IN ({', '.join('?' * len(filters.kinds))})")
            args.extend(filters.kinds)
        if filters.since:
            where.append("d.at >= ?")
            args.append(filters.since)
        if filters.until:
            where.append("d.at < ?")
            args.append(filters.until)
        sql = (
            "SELECT c.key, c.agent, c.folder, c.title, c.updated, d.item, d.kind, d.at, d.body "
            "FROM words JOIN docs d ON d.id = words.rowid JOIN chats c ON c.id = d.chat "
            f"WHERE {' AND '.join(where)} ORDER BY words.rowid DESC LIMIT ?"
        )
        with self._lock:
            try:
                rows = self._db.execute(sql, (*args, limit)).fetchall()
            except sqlite3.DatabaseError as exc:
                if "fts5" in str(exc) or "MATCH" in str(exc):  # never expected: the query is quoted
                    log.warning("search %r refused: %s", text, exc)
                    return []
                self._recover(exc)
                return []
        return [
            Hit(Chat(*row[:5]), row[5], row[6], row[7], snippet(_unpack(row[8]), query.terms, query.prefix))
            for row in rows
        ]

    def add_usage(self, turns: Sequence[usage_ledger.TurnUsage]) -> None:
        with self._lock, self._db:  # one transaction
            usage_ledger.add(self._db, turns)

    def usage_days(self, since: str) -> list[UsageDay]:
        with self._lock:
            return usage_ledger.days(self._db, since)

    def usage_chats(self, since: str, limit: int) -> list[UsageChat]:
        with self._lock:
            return usage_ledger.chats(self._db, since, limit)

    def has_chat(self, key: str) -> bool:
        with self._lock:
            return self._db.execute("SELECT 1 FROM chats WHERE key = ?", (key,)).fetchone() is not None

    def indexed_chat(self, key: str) -> IndexedChat | None:
        with self._lock:
            chat = self._db.execute(
                "SELECT id, key, agent, folder, title, updated FROM chats WHERE key = ?", (key,)
            ).fetchone()
            if chat is None:
                return None
            rows = self._db.execute(
                "SELECT item, kind, at, body FROM docs WHERE chat = ? ORDER BY id", (chat[0],)
            ).fetchall()
        texts = tuple(IndexedText(item, kind, at, _unpack(body)) for item, kind, at, body in rows)
        return IndexedChat(Chat(*chat[1:]), texts)

    def facets(self) -> Facets:
        with self._lock:
            agents = self._db.execute("SELECT DISTINCT agent FROM chats ORDER BY agent").fetchall()
            folders = self._db.execute("SELECT DISTINCT folder FROM chats WHERE folder != '' ORDER BY folder")
            return Facets(tuple(a for (a,) in agents), tuple(f for (f,) in folders.fetchall()))

    def sizes(self) -> tuple[int, int, int]:
        """(chats, entries, bytes in use) of the index."""
        chats, entries = self.counts()
        with self._lock:
            return chats, entries, self.used_bytes()

    def counts(self) -> tuple[int, int]:
        """(chats, entries) indexed."""
        with self._lock:
            chats = self._db.execute("SELECT count(*) FROM chats").fetchone()[0]
            docs = self._db.execute("SELECT count(*) FROM docs").fetchone()[0]
        return int(chats), int(docs)

    def release_memory(self) -> None:
        """SQLite's page cache handed back: a history indexed once would otherwise keep a cache as large
        as the pages it wrote for the rest of the run; the next search reads them from the file."""
        with self._lock:
            self._db.execute("PRAGMA shrink_memory")

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _unwritable(exc: sqlite3.DatabaseError) -> bool:
    text = str(exc).lower()
    return "readonly" in text or "read-only" in text or "unable to open" in text
