"""What the user does with a turn's changes, hunk by hunk: the hunks of each changed text file, Keep
(remembered, the hunk stays), Undo of one hunk (the file rewritten without it; what the turn left is
then counted without it too, so the change set shows what remains), and Undo of the whole turn (each
file put back, the refusals said one by one). Files that are not UTF-8 text, created, deleted, binary
or too large are undone whole."""

from __future__ import annotations

import os
from dataclasses import dataclass

from app.main.review.change_sets import FileDelta
from app.main.review.hunks import Hunk, hunks, reverse
from app.main.review.turn_changes import TurnChanges
from app.main.review.undo import UndoRefused, read_kept, undo_hunk


@dataclass(frozen=True)
class FileReview:
    delta: FileDelta
    hunks: tuple[Hunk, ...]  # none when the file is undone whole (`whole` says why)
    kept: frozenset[str]  # ids of the hunks the user kept
    whole: str = ""


def _texts(changes: TurnChanges, delta: FileDelta) -> tuple[str, str] | str:
    """(old text, new text) of a modified text file, else why it is undone whole."""
    if delta.status != "modified":
        return f"A {delta.status} file is undone whole"
    assert delta.before is not None and delta.after is not None
    if delta.before.kind != "text" or delta.after.kind != "text":
        return "Only a text file is undone hunk by hunk"
    try:
        old = read_kept(changes.blobs, delta.before, delta.path)
        new = read_kept(changes.blobs, delta.after, delta.path)
        assert old is not None and new is not None
        return old.decode("utf-8"), new.decode("utf-8")
    except UnicodeDecodeError:
        return "Not UTF-8 text: undone whole"
    except UndoRefused as exc:
        return str(exc)


class ReviewDesk:
    def __init__(self, changes: TurnChanges) -> None:
        self.changes = changes

    def review(self, chat: str, turn: str) -> list[FileReview]:
        kept = self.changes.index.kept(chat, turn)
        files = []
        for delta in self.changes.changes(chat, turn):
            texts = _texts(self.changes, delta)
            if isinstance(texts, str):
                files.append(FileReview(delta, (), frozenset(), texts))
                continue
            found = tuple(hunks(*texts))
            ids = frozenset(h.id for h in found if (delta.root, delta.path, h.id) in kept)
            files.append(FileReview(delta, found, ids))
        return files

    def _file(self, chat: str, turn: str, absolute: str) -> FileDelta:
        delta = self.changes.find(chat, turn, absolute)
        if delta is None:
            raise UndoRefused(f"{absolute}: no recorded change in this turn")
        return delta

    def undo_hunk(self, chat: str, turn: str, absolute: str, hunk_id: str) -> None:
        """Undo one hunk in the file (UndoRefused with the reason: its lines were edited since)."""
        delta = self._file(chat, turn, absolute)
        texts = _texts(self.changes, delta)
        if isinstance(texts, str):
            raise UndoRefused(texts)
        old, new = texts
        hunk = next((h for h in hunks(old, new) if h.id == hunk_id), None)
        if hunk is None:
            raise UndoRefused(f"{delta.path}: that change is no longer part of this turn")
        undo_hunk(delta, new, hunk)
        remaining = reverse(new, new, hunk)
        assert remaining is not None  # the hunk's own text always has it where it was made
        if remaining == old:
            self.changes.index.mark_undone(chat, turn, delta.root, delta.path)
        else:
            digest = self.changes.blobs.keep(remaining.encode("utf-8"))
            self.changes.index.adjust(chat, turn, delta.root, delta.path, digest)

    def keep(self, chat: str, turn: str, absolute: str, hunk_ids: list[str]) -> None:
        """Keep these hunks of the file (all of them when `hunk_ids` is empty)."""
        delta = self._file(chat, turn, absolute)
        if not hunk_ids:
            texts = _texts(self.changes, delta)
            hunk_ids = [h.id for h in hunks(*texts)] if not isinstance(texts, str) else ["whole"]
        self.changes.index.keep(chat, turn, delta.root, delta.path, hunk_ids)

    def undo_turn(self, chat: str, turn: str, skip: frozenset[str] | set[str] = frozenset()) -> list[str]:
        """Put every file of the turn back (but those at the absolute paths `skip`, which another
        record still holds); the sentences of those refused (the rest are back)."""
        refused = []
        for delta in self.changes.changes(chat, turn):
            if os.path.join(delta.root, *delta.path.split("/")) in skip:
                continue
            try:
                self.changes.undo_now(chat, turn, delta)
            except UndoRefused as exc:
                refused.append(str(exc))
        return refused
