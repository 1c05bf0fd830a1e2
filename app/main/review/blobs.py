"""The content-addressed copies of the user's files: each kept once under its SHA-256, whoever
needs it (every chat, every snapshot). A copy's name is its hash, so a copy is checked when it is
read and a half-written one (a power cut) is found and refused instead of being written back."""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

from app.main.files.atomic import PRIVATE, atomic_write_bytes


class BlobMissing(Exception):
    """A copy that is gone or no longer matches its hash: what it held cannot be written back."""


class BlobStore:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, digest: str) -> Path:
        return self.folder / digest[:2] / digest[2:]

    def has(self, digest: str) -> bool:
        return self._path(digest).is_file()

    def keep(self, data: bytes) -> str:
        """The hash of `data`, its copy written unless one is already there."""
        digest = hashlib.sha256(data).hexdigest()
        path = self._path(digest)
        if not path.is_file():
            with contextlib.suppress(FileExistsError):
                path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(str(path), data, PRIVATE, durable=False)
        return digest

    def read(self, digest: str) -> bytes:
        """The bytes kept under `digest`; BlobMissing when the copy is gone or damaged."""
        try:
            data = self._path(digest).read_bytes()
        except OSError as exc:
            raise BlobMissing(f"the copy ClawQt kept is gone ({exc.strerror})") from None
        if hashlib.sha256(data).hexdigest() != digest:
            raise BlobMissing("the copy ClawQt kept is damaged")
        return data
