"""The difference between two snapshots of one folder: which files were created, changed or deleted,
each with what it was and what it became (the copies in the blob store give the contents)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

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
    if before.notes.too_big or after.notes.too_big:
        return []
    deltas = []
    for path in sorted(before.entries.keys() | after.entries.keys()):
        old, new = before.entries.get(path), after.entries.get(path)
        if old is not None and new is not None and old.same_content(new):
            continue
        deltas.append(FileDelta(after.root, path, old, new))
    return deltas
