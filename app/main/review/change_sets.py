"""The difference between two snapshots of one folder: which files were created, changed or deleted,
each with what it was and what it became (the copies in the blob store give the contents)."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any, Literal

from app.main.review.manifest import Entry, Manifest

Status = Literal["created", "modified", "deleted"]


@dataclass(frozen=True)
class FileDelta:
    root: str
    path: str  # relative to root, `/`-separated
    before: Entry | None
    after: Entry | None

    @property
    def status(self) -> Status:
        if self.before is None:
            return "created"
        return "deleted" if self.after is None else "modified"


def difference(before: Manifest, after: Manifest) -> list[FileDelta]:
    """What changed from `before` to `after`, by path; nothing when either could not track the folder
    (its notes say why)."""
    if before.notes.too_big or after.notes.too_big or before.entries is after.entries:
        return []
    old, new = before.entries, after.entries
    # an entry taken over from the earlier snapshot is the same object: only the rest are compared
    changed = [
        path
        for path, entry in new.items()
        if (was := old.get(path)) is not entry and (was is None or not was.same_content(entry))
    ]
    changed += [path for path in old if path not in new]
    return [FileDelta(after.root, path, old.get(path), new.get(path)) for path in sorted(changed)]


def _row(entry: Entry | None) -> list[Any] | None:
    return None if entry is None else [entry.size, entry.mtime_ns, entry.inode, entry.digest, entry.kind]


def _entry(row: list[Any] | None) -> Entry | None:
    return None if row is None else Entry(row[0], row[1], row[2], row[3], row[4])


def encode_deltas(deltas: list[FileDelta]) -> bytes:
    """A change set as it is stored once its turn settled: reading it back costs a few rows, not the
    two snapshots of every folder it came from."""
    rows = [[d.root, d.path, _row(d.before), _row(d.after)] for d in deltas]
    return zlib.compress(json.dumps(rows, separators=(",", ":")).encode(), 1)


def decode_deltas(data: bytes) -> list[FileDelta]:
    return [
        FileDelta(root, path, _entry(before), _entry(after))
        for root, path, before, after in json.loads(zlib.decompress(data))
    ]
