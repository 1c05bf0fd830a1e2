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
