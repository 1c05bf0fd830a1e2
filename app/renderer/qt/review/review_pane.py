"""`review` in QML: the pane that reviews one turn's changes, hunk by hunk. It asks the host for the
turn's files when opened and again whenever that turn's files change (a FileChangesEnvelope: an undo,
a keep, a later write), keeps which hunk the keyboard is on (UI state, here rather than in the host),
and passes Keep / Undo / Undo all on. A refused undo says why, in the pane and as a notice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import Envelope, FileChangesEnvelope, HunkView, ReviewFileView
from app.contract.errors import HostError
from app.contract.host_api import SessionsHost
from app.contract.review_host import FileChangesHost
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property


def hunk_diff(path: str, hunk: HunkView) -> str:
    """One hunk as a unified diff, for the view every diff is drawn with (DiffView.qml)."""
    rows = [f"--- {path}\n", f"+++ {path}\n"]
    rows.append(f"@@ -{hunk.old_start + 1},{len(hunk.removed)} +{hunk.new_start + 1},{len(hunk.added)} @@\n")
    rows += [f"-{line.rstrip(chr(10))}\n" for line in hunk.removed]
    rows += [f"+{line.rstrip(chr(10))}\n" for line in hunk.added]
    return "".join(rows)


def _lines(hunk: HunkView) -> str:
    first, count = hunk.new_start + 1, len(hunk.added)
    return f"line {first}" if count <= 1 else f"lines {first}-{first + count - 1}"


def _file_entry(file: ReviewFileView, comments: dict[tuple[str, str], str]) -> dict[str, Any]:
    return {
        "path": file.path,
        "name": file.name,
        "status": file.status,
        "whole": file.whole,
        "hunks": [
            {
                "id": h.id,
                "kept": h.kept,
                "diff": hunk_diff(file.name, h),
                "line": h.new_start + 1,
                "lines": _lines(h),
                "comment": comments.get((file.path, h.id), ""),
            }
            for h in file.hunks
        ],
    }


def comments_prompt(comments: list[tuple[str, str, str]]) -> str:
    """The review's comments as the next message: one line per comment, where it is and what it says."""
    said = [f"- In {name} {where}: {text.strip()}" for name, where, text in comments]
    return "Comments on your changes:\n" + "\n".join(said)


class ReviewPane(QObject):
    changed = Signal()
    commentsChanged = Signal()  # a comment typed: the files (and the fields being typed in) stay as they are

    def __init__(
        self,
        files: FileChangesHost,
        host: SessionsHost,
        ops: Operations,
        shown_key: Callable[[], str],
        send: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._files = files
        self._send = send  # a message to the agent, as the user's (the composer's draft is kept)
        self._comments: dict[tuple[str, str], str] = {}  # (path, hunk id) -> what the user wrote
        self._shown_key = shown_key  # the chat the window shows: the footers' turns are its
        self._ops = ops
        self._key = ""
        self._turn = ""
        self._entries: list[dict[str, Any]] = []
        self._current = 0  # the hunk (or whole file) the keyboard is on, counted over the pane
        self._said = ""
        host.subscribe(self._on_envelope)

    # --- what the pane shows --------------------------------------------------------------------
    isOpen = Property(bool, lambda self: bool(self._turn), notify=changed)
    turnId = Property(str, lambda self: self._turn, notify=changed)
    files = variant_property("QVariantList", lambda self: self._entries, notify=changed)
    current = Property(int, lambda self: self._current, notify=changed)
    said = Property(str, lambda self: self._said, notify=changed)  # the last refusal

    def _stops(self) -> list[tuple[str, str]]:
        """(path, hunk id or "") for every place the keyboard stops: each pending hunk, each whole file."""
        stops = []
        for entry in self._entries:
            if entry["hunks"]:
                stops += [(entry["path"], h["id"]) for h in entry["hunks"] if not h["kept"]]
            else:
                stops.append((entry["path"], ""))
        return stops

    count = Property(int, lambda self: len(self._stops()), notify=changed)

    @Slot(str, str, result=int)
    def stopOf(self, path: str, hunk_id: str) -> int:
        """Where a hunk (or a whole file: hunk_id "") is among the keyboard's stops, or -1."""
        try:
            return self._stops().index((path, hunk_id))
        except ValueError:
            return -1

    def _refresh(self) -> None:
        if not self._turn:
            return
        found = self._ops.call("Review", lambda: self._files.review(self._key, self._turn))
        self._entries = [_file_entry(file, self._comments) for file in found or []]
        self._current = max(0, min(self._current, len(self._stops()) - 1))
        self.changed.emit()

    def _on_envelope(self, envelope: Envelope) -> None:
        if isinstance(envelope, FileChangesEnvelope) and (envelope.session_key, envelope.turn_id) == (
            self._key,
            self._turn,
        ):
            self._refresh()

    # --- what the user does ----------------------------------------------------------------------
    @Slot(str)
    def openTurn(self, turn_id: str) -> None:
        """Review a turn of the chat shown (its footer's Review button)."""
        if (self._key, self._turn) != (self._shown_key(), turn_id):
            self._comments = {}
            self.commentsChanged.emit()
        self._key, self._turn, self._current, self._said = self._shown_key(), turn_id, 0, ""
        self._refresh()

    @Slot()
    def close(self) -> None:
        self._turn = ""
        self._entries = []
        self.changed.emit()

    @Slot(int)
    def move(self, step: int) -> None:
        stops = len(self._stops())
        if stops:
            self._current = max(0, min(stops - 1, self._current + step))
            self.changed.emit()

    @Slot(int)
    def goTo(self, stop: int) -> None:
        if 0 <= stop < len(self._stops()):
            self._current = stop
            self.changed.emit()

    def _refused(self, error: HostError) -> None:
        self._said = str(error)
        self.changed.emit()

    @Slot()
    def keepCurrent(self) -> None:
        stops = self._stops()
        if stops:
            path, hunk = stops[self._current]
            self._act(
                "Not kept",
                lambda: self._files.keep_hunks(self._key, self._turn, path, [hunk] if hunk else []),
            )

    @Slot()
    def undoCurrent(self) -> None:
        stops = self._stops()
        if not stops:
            return
        path, hunk = stops[self._current]
        if hunk:
            self._act("Not undone", lambda: self._files.undo_hunk(self._key, self._turn, path, hunk))
        else:
            self._act("Not undone", lambda: self._files.revert(self._key, self._turn, path))

    @Slot(str)
    def keepFile(self, path: str) -> None:
        self._act("Not kept", lambda: self._files.keep_hunks(self._key, self._turn, path, []))

    @Slot(str)
    def undoFile(self, path: str) -> None:
        self._act("Not undone", lambda: self._files.revert(self._key, self._turn, path))

    commentCount = Property(
        int, lambda self: sum(1 for text in self._comments.values() if text.strip()), notify=commentsChanged
    )

    @Slot(str, str, str)
    def setComment(self, path: str, hunk_id: str, text: str) -> None:
        """What the user says about a change (kept while the pane shows this turn)."""
        self._comments[(path, hunk_id)] = text
        for entry in self._entries:  # what a rebuilt delegate shows; the one typed in is not rebuilt
            for hunk in entry["hunks"]:
                if (entry["path"], hunk["id"]) == (path, hunk_id):
                    hunk["comment"] = text
        self.commentsChanged.emit()

    @Slot()
    def sendComments(self) -> None:
        """Every comment as one message to the agent, then they are cleared."""
        where = {
            (entry["path"], hunk["id"]): (entry["name"], hunk["lines"])
            for entry in self._entries
            for hunk in entry["hunks"]
        }
        said = [(*where[key], text) for key, text in self._comments.items() if text.strip() and key in where]
        if said:
            self._send(comments_prompt(said))
            self._comments = {}
            self.commentsChanged.emit()
            self._refresh()

    @Slot()
    def undoTurn(self) -> None:
        refused = self._ops.call("Not undone", lambda: self._files.undo_turn(self._key, self._turn))
        self._said = " ".join(refused or [])
        self._refresh()

    def _act(self, failed: str, call: Any) -> None:
        self._said = ""
        self._ops.call(failed, call, refused=self._refused)
        self._refresh()
