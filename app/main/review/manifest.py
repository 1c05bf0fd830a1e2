"""A snapshot of one folder: every tracked file's path (relative, `/`-separated) with what identifies
its content, and what the scan could not track, in words the user reads."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from typing import Any, Literal

# how a file is held: its bytes kept as text or as binary, too large to keep (known by size and time
# only), or unreadable (known by name only)
Kind = Literal["text", "binary", "large", "unreadable"]
KEPT: tuple[Kind, ...] = ("text", "binary")


@dataclass(frozen=True)
class Entry:
    size: int
    mtime_ns: int
    inode: int
    digest: str  # the SHA-256 of the kept copy; "" when not kept
    kind: Kind

    def same_content(self, other: Entry) -> bool:
        if self.kind in KEPT and other.kind in KEPT:
            return self.digest == other.digest
        return (self.kind, self.size, self.mtime_ns) == (other.kind, other.size, other.mtime_ns)


@dataclass
class ScanNotes:
    """What a scan left out, and why (each list bounded: the first few names, then a count)."""

    ignored: int = 0  # by a .gitignore, or a version-control folder
    symlinks: int = 0  # never followed, never written back
    large: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    changing: list[str] = field(default_factory=list)  # changed while being read, twice
    too_big: str = ""  # the folder is not tracked at all: the sentence says why

    def as_dict(self) -> dict[str, Any]:
        return {
            "ignored": self.ignored,
            "symlinks": self.symlinks,
            "large": self.large,
            "unreadable": self.unreadable,
            "changing": self.changing,
            "too_big": self.too_big,
        }

    @classmethod
    def of(cls, raw: dict[str, Any]) -> ScanNotes:
        return cls(
            int(raw.get("ignored", 0)),
            int(raw.get("symlinks", 0)),
            list(raw.get("large", [])),
            list(raw.get("unreadable", [])),
            list(raw.get("changing", [])),
            str(raw.get("too_big", "")),
        )


@dataclass
class Manifest:
    root: str
    entries: dict[str, Entry]
    notes: ScanNotes
    started_ns: int  # when the scan began: a file changed after it is hashed again next time
    # the stored form, made on the scan's thread (`encode()`); a scan that found nothing new carries
    # the previous snapshot's, which the index then stores only once
    encoded: bytes | None = field(default=None, repr=False, compare=False)

    def encode(self) -> bytes:
        """The same bytes for the same folder state (the scan's time is kept beside it, not in it), so
        snapshots of an unchanged folder share one stored manifest."""
        if self.encoded is not None:
            return self.encoded
        body = {
            "root": self.root,
            "notes": self.notes.as_dict(),
            "entries": [[p, e.size, e.mtime_ns, e.inode, e.digest, e.kind] for p, e in self.entries.items()],
        }
        self.encoded = zlib.compress(json.dumps(body, separators=(",", ":")).encode(), 1)
        return self.encoded

    @classmethod
    def decode(cls, data: bytes, started_ns: int) -> Manifest:
        body = json.loads(zlib.decompress(data))
        entries = {row[0]: Entry(row[1], row[2], row[3], row[4], row[5]) for row in body["entries"]}
        return cls(body["root"], entries, ScanNotes.of(body["notes"]), started_ns)
