"""Putting a file of a change set back, whole or one hunk at a time: through the same confined walk
as the agent's own writes (each folder below the chat's folder opened without following a symlink,
the file replaced atomically in the verified folder). Whole, only when the file is still exactly what
the turn left; one hunk, only when that hunk's lines are still there (hunks.reverse): a file changed
again since is refused with the reason, never overwritten."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable

from app.main.files.agent_files import AgentFileError, current_at
from app.main.files.confined_open import Changed, open_dir, replace_atomically
from app.main.review.blobs import BlobMissing, BlobStore
from app.main.review.change_sets import FileDelta
from app.main.review.hunks import Hunk, reverse
from app.main.review.manifest import KEPT, Entry

RETRIES = 3

# what a file now holds (None: there is none) -> what it must hold (None: delete it)
Rewrite = Callable[[bytes | None], bytes | None]


class UndoRefused(Exception):
    """Why a file was not put back (the sentence the user reads)."""


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _kept(entry: Entry | None, shown: str, when: str) -> None:
    if entry is not None and entry.kind not in KEPT:
        reason = "too large to keep a copy of" if entry.kind == "large" else "could not be read"
        raise UndoRefused(f"{shown} was {reason} {when}, so ClawQt cannot put it back")


def read_kept(blobs: BlobStore, entry: Entry | None, shown: str) -> bytes | None:
    """The kept bytes of `entry` (None: no file); UndoRefused when the copy is gone or damaged."""
    try:
        return blobs.read(entry.digest) if entry is not None else None
    except BlobMissing as exc:
        raise UndoRefused(f"{shown}: {exc}") from None


def undo(delta: FileDelta, blobs: BlobStore) -> None:
    """Put `delta.path` back as it was before the turn (delete it if the turn created it)."""
    _kept(delta.before, delta.path, "before the turn")
    _kept(delta.after, delta.path, "after the turn")
    original = read_kept(blobs, delta.before, delta.path)
    expected = delta.after.digest if delta.after is not None else None

    def whole(current: bytes | None) -> bytes | None:
        if _digest(current) != expected:
            raise UndoRefused(f"{delta.path} changed since this turn, so ClawQt left it as it is")
        return original

    rewrite(delta, whole)


def undo_hunk(delta: FileDelta, new_text: str, hunk: Hunk) -> str:
    """Undo one hunk of a modified text file in place; the file's text afterwards."""

    def one(current: bytes | None) -> bytes | None:
        try:
            text = current.decode("utf-8") if current is not None else None
        except UnicodeDecodeError:
            text = None
        done = reverse(text, new_text, hunk) if text is not None else None
        if done is None:
            raise UndoRefused(
                f"{delta.path}: the lines of this change were edited since, so ClawQt left the file as it is"
            )
        return done.encode("utf-8")

    return rewrite(delta, one).decode("utf-8")  # type: ignore[union-attr]


def rewrite(delta: FileDelta, change: Rewrite) -> bytes | None:
    """Read the file, let `change` say what it must hold, write that; what was written."""
    parts = tuple(delta.path.split("/"))
    for _ in range(RETRIES):
        try:
            return _rewrite_once(delta, parts, change)
        except Changed:
            continue
        except (FileNotFoundError, NotADirectoryError):
            raise UndoRefused(f"{delta.path}: its folder is gone, so ClawQt did not put it back") from None
        except AgentFileError as exc:
            raise UndoRefused(str(exc)) from None
        except OSError as exc:
            raise UndoRefused(f"{delta.path} was not put back: {exc.strerror}") from None
    raise UndoRefused(f"{delta.path} kept changing while ClawQt put it back; it was left as it is")


def _rewrite_once(delta: FileDelta, parts: tuple[str, ...], change: Rewrite) -> bytes | None:
    with open_dir(delta.root, parts[:-1]) as parent:
        name = parts[-1]
        current, mode = current_at(parent, name, delta.path)
        wanted = change(current)
        if wanted is None:
            with contextlib.suppress(FileNotFoundError):
                parent.unlink(name)
        elif wanted != current:
            replace_atomically(parent, name, wanted, mode)
        return wanted
