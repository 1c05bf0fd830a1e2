"""One snapshot of a folder: walked once from its own descriptor (each sub-folder opened in its parent
without following a symlink, so a folder swapped for a link mid-walk is never entered), every regular
file's size, time and inode read, and its bytes copied into the blob store only when those differ
from the last snapshot (or the file changed so close to it that the time cannot tell). Nothing is
ever written in the folder.

Limits, each said in the notes rather than failing the turn: more than MAX_FILES files (the folder is
not tracked at all), a file over MAX_KEPT_BYTES (known by size and time only: listed as changed, not
undoable), a file that keeps changing while it is read, a folder or file that cannot be read, symlinks
(never followed) and what `.gitignore` leaves out (counted)."""

from __future__ import annotations

import contextlib
import os
import stat
import time

from app.main.core.paths import within
from app.main.files.confined_open import DIR_FD, DIR_FLAGS, TEMP_PREFIX
from app.main.files.regular_files import OPEN_FLAGS
from app.main.review.blobs import BlobStore
from app.main.review.ignore_rules import MAX_GITIGNORE_BYTES, VCS_FOLDERS, IgnoreRules
from app.main.review.manifest import Entry, Kind, Manifest, ScanNotes

MAX_FILES = 100_000
MAX_KEPT_BYTES = 16 * 1024 * 1024
MAX_NAMED = 20  # names listed per note; the rest counted
RACY_NS = 2_000_000_000  # a file changed this close before the last scan began is read again
BINARY_SNIFF = 8192

Where = int | str  # a folder's descriptor, or its path where the platform has no dir_fd


def _open_in(where: Where, name: str, flags: int) -> int:
    if isinstance(where, int):
        return os.open(name, flags, dir_fd=where)
    return os.open(os.path.join(where, name), flags)


def _note(names: list[str], name: str) -> None:
    if len(names) < MAX_NAMED:
        names.append(name)


class Scan:
    """One walk; `run` returns the manifest."""

    def __init__(
        self, root: str, previous: Manifest | None, blobs: BlobStore, leave_out: tuple[str, ...] = ()
    ) -> None:
        self.root = root
        # ClawQt's own folders and files below the root (its data folder when the chat's folder is the
        # home folder, a trace or log it writes there): their relative paths
        self.leave_out = frozenset(
            os.path.relpath(path, root).replace(os.sep, "/") for path in leave_out if within(path, root)
        )
        self.blobs = blobs
        self.started_ns = time.time_ns()
        self.old = previous.entries if previous is not None and previous.root == root else {}
        self.trust_before = previous.started_ns - RACY_NS if previous is not None else 0
        self.entries: dict[str, Entry] = {}
        self.notes = ScanNotes()
        self.previous = previous if previous is not None and previous.root == root else None
        self.fresh = 0  # entries not taken over from the previous snapshot

    def run(self) -> Manifest:
        try:
            top: Where = os.open(self.root, DIR_FLAGS) if DIR_FD else self.root
        except OSError as exc:
            self.notes.too_big = (
                f"ClawQt cannot read {self.root} ({exc.strerror}), so it tracks no change there"
            )
            return self._manifest()
        pending: list[tuple[Where, str, IgnoreRules]] = [(top, "", IgnoreRules())]
        try:
            while pending:
                where, prefix, rules = pending.pop()
                try:
                    self._folder(where, prefix, rules, pending)
                finally:
                    if isinstance(where, int):
                        os.close(where)
                if self.notes.too_big:
                    break
        finally:
            for where, _prefix, _rules in pending:
                if isinstance(where, int):
                    os.close(where)
        if self.notes.too_big:
            self.entries = {}
        return self._manifest()

    def _manifest(self) -> Manifest:
        previous = self.previous
        if (
            previous is not None
            and not self.fresh
            and len(self.entries) == len(previous.entries)
            and self.notes == previous.notes
        ):  # the folder as it was: the previous snapshot's entries and stored form serve again
            return Manifest(self.root, previous.entries, self.notes, self.started_ns, previous.encoded)
        return Manifest(self.root, self.entries, self.notes, self.started_ns)

    def _folder(
        self, where: Where, prefix: str, rules: IgnoreRules, pending: list[tuple[Where, str, IgnoreRules]]
    ) -> None:
        try:
            with os.scandir(where) as listing:
                items = sorted(listing, key=lambda item: item.name)
        except OSError:
            _note(self.notes.unreadable, prefix or "./")
            return
        if any(item.name == ".gitignore" for item in items):
            rules = rules.below(prefix, self._gitignore(where))
        for item in items:
            name = item.name
            relative = prefix + name
            if name.startswith(TEMP_PREFIX) and name.endswith(".tmp"):
                continue  # ClawQt's own temporary file of a write in progress
            try:
                info = item.stat(follow_symlinks=False)
            except OSError:
                _note(self.notes.unreadable, relative)
                continue
            if stat.S_ISLNK(info.st_mode):
                self.notes.symlinks += 1
            elif stat.S_ISDIR(info.st_mode):
                if name in VCS_FOLDERS or relative in self.leave_out or rules.ignored(relative, folder=True):
                    self.notes.ignored += 1
                    continue
                try:
                    child: Where = _open_in(where, name, DIR_FLAGS) if isinstance(where, int) else item.path
                except OSError:  # unreadable, or swapped for a symlink since it was listed
                    _note(self.notes.unreadable, relative + "/")
                    continue
                pending.append((child, relative + "/", rules))
            elif stat.S_ISREG(info.st_mode):
                if relative in self.leave_out or rules.ignored(relative, folder=False):
                    self.notes.ignored += 1
                    continue
                if len(self.entries) >= MAX_FILES:
                    self.notes.too_big = (
                        f"{self.root} holds more than {MAX_FILES:,} files, so ClawQt tracks no change there "
                        "(a .gitignore that leaves out what the agent never edits brings it under)"
                    )
                    return
                self.entries[relative] = self._file(where, name, relative, info)

    def _gitignore(self, where: Where) -> bytes | None:
        with contextlib.suppress(OSError):
            fd = _open_in(where, ".gitignore", OPEN_FLAGS)
            try:
                return os.read(fd, MAX_GITIGNORE_BYTES)
            finally:
                os.close(fd)
        return None

    def _file(self, where: Where, name: str, relative: str, info: os.stat_result) -> Entry:
        old = self.old.get(relative)
        if (
            old is not None
            and (old.size, old.mtime_ns, old.inode) == (info.st_size, info.st_mtime_ns, info.st_ino)
            and info.st_mtime_ns < self.trust_before
            and old.kind != "unreadable"
        ):
            return old
        self.fresh += 1
        if info.st_size > MAX_KEPT_BYTES:
            _note(self.notes.large, relative)
            return Entry(info.st_size, info.st_mtime_ns, info.st_ino, "", "large")
        for _attempt in range(2):
            try:
                entry = self._read(where, name, info)
            except PermissionError:
                _note(self.notes.unreadable, relative)
                return Entry(info.st_size, info.st_mtime_ns, info.st_ino, "", "unreadable")
            if entry is not None:
                return entry
            with contextlib.suppress(OSError):
                info = (
                    os.stat(name, dir_fd=where, follow_symlinks=False)
                    if isinstance(where, int)
                    else (os.lstat(os.path.join(where, name)))
                )
        _note(self.notes.changing, relative)
        return Entry(info.st_size, info.st_mtime_ns, info.st_ino, "", "unreadable")

    def _read(self, where: Where, name: str, listed: os.stat_result) -> Entry | None:
        """The file's entry with its bytes kept; None when it changed while being read (or was swapped
        for something else since it was listed); PermissionError when it cannot be read."""
        try:
            fd = _open_in(where, name, OPEN_FLAGS)
        except PermissionError:
            raise
        except OSError:
            return None
        try:
            before = os.fstat(fd)
            if not stat.S_ISREG(before.st_mode) or before.st_ino != listed.st_ino:
                return None
            chunks = []
            left = MAX_KEPT_BYTES + 1
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            after = os.fstat(fd)
        except OSError:
            return None
        finally:
            os.close(fd)
        data = b"".join(chunks)
        if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns) or len(
            data
        ) != after.st_size:
            return None
        kind: Kind = "binary" if b"\0" in data[:BINARY_SNIFF] else "text"
        return Entry(after.st_size, after.st_mtime_ns, after.st_ino, self.blobs.keep(data), kind)


def scan_folder(
    root: str, previous: Manifest | None, blobs: BlobStore, leave_out: tuple[str, ...] = ()
) -> Manifest:
    """A snapshot of `root` (canonical), reusing `previous` for files whose size, time and inode
    have not changed; the canonical paths `leave_out` (ClawQt's own folders and files) are never read.
    Its stored form is made here too (off the event loop)."""
    manifest = Scan(root, previous, blobs, leave_out).run()
    manifest.encode()
    return manifest
