"""`review` in QML: the pane that reviews changes hunk by hunk, of one turn (a footer's Review) or of
every turn of the chat that changed files (Review all changes). It asks the host for the turns' files
when opened and again whenever one of them changes (a FileChangesEnvelope: an undo, a keep, a later
write, a new turn's changes), keeps which hunk the keyboard is on and what the user wrote about each
change (UI state, here rather than in the host), and passes Keep / Undo / Undo all on. A refused undo
says why, in the pane and as a notice."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import Envelope, FileChangesEnvelope, HunkView, ReviewFileView
from app.contract.errors import HostError
from app.contract.host_api import SessionsHost
from app.contract.review_host import FileChangesHost
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property

Stop = tuple[str, str, str]  # (turn, path, hunk id or "" for a file undone whole)


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


def _file_entry(turn: str, file: ReviewFileView, comments: dict[Stop, dict[str, Any]]) -> dict[str, Any]:
    hunks = []
    for h in file.hunks:
        comment = comments.get((turn, file.path, h.id), {})
        first = h.new_start + 1
        hunks.append(
            {
                "id": h.id,
                "kept": h.kept,
                "diff": hunk_diff(file.name, h),
                "line": first,
                "lastLine": first + max(0, len(h.added) - 1),
                "lines": _lines(h),
                "comment": comment.get("text", ""),
                "commentLine": comment.get("line", 0),  # 0: the whole hunk
            }
        )
    return {"turn": turn, "path": file.path, "name": file.name, "status": file.status, "whole": file.whole,
            "hunks": hunks}  # fmt: skip


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
        asked: Callable[[str], str] = lambda _turn: "",
    ) -> None:
        super().__init__(parent)
        self._files = files
        self._send = send  # a message to the agent, as the user's (the composer's draft is kept)
        self._asked = asked  # the user's message that started a turn, as the chat shows it
        self._comments: dict[Stop, dict[str, Any]] = {}  # what the user wrote, and on which line
        self._shown_key = shown_key  # the chat the window shows: the footers' turns are its
        self._ops = ops
        self._key = ""
        self._turns: list[str] = []  # the turns shown, oldest first
        self._whole_chat = False  # every turn of the chat, the list following new ones
        self._entries: list[dict[str, Any]] = []
        self._current = 0  # the hunk (or whole file) the keyboard is on, counted over the pane
        self._said = ""
        self._side_by_side = False
        host.subscribe(self._on_envelope)

    # --- what the pane shows --------------------------------------------------------------------
    isOpen = Property(bool, lambda self: bool(self._turns) or self._whole_chat, notify=changed)
    turnId = Property(str, lambda self: "" if self._whole_chat else "".join(self._turns[:1]), notify=changed)
    wholeChat = Property(bool, lambda self: self._whole_chat, notify=changed)
    files = variant_property("QVariantList", lambda self: self._entries, notify=changed)
    current = Property(int, lambda self: self._current, notify=changed)
    said = Property(str, lambda self: self._said, notify=changed)  # the last refusal
    sideBySideChanged = Signal()
    # how the hunks are drawn: old and new side by side, or one unified column (kept while ClawQt runs)
    sideBySide = Property(bool, lambda self: self._side_by_side, notify=sideBySideChanged)

    @Slot(bool)
    def setSideBySide(self, value: bool) -> None:
        if value != self._side_by_side:
            self._side_by_side = value
            self.sideBySideChanged.emit()

    def _stops(self) -> list[Stop]:
        """Every place the keyboard stops: each pending hunk, each file undone whole."""
        stops = []
        for entry in self._entries:
            turn, path = entry["turn"], entry["path"]
            if entry["hunks"]:
                stops += [(turn, path, h["id"]) for h in entry["hunks"] if not h["kept"]]
            else:
                stops.append((turn, path, ""))
        return stops

    count = Property(int, lambda self: len(self._stops()), notify=changed)

    @Slot(str, str, str, result=int)
    def stopOf(self, turn: str, path: str, hunk_id: str) -> int:
        """Where a hunk (or a whole file: hunk_id "") is among the keyboard's stops, or -1."""
        try:
            return self._stops().index((turn, path, hunk_id))
        except ValueError:
            return -1

    def _refresh(self) -> None:
        if not self.isOpen:
            return
        if self._whole_chat:
            self._turns = self._ops.call("Review", lambda: self._files.turns(self._key)) or []
        entries: list[dict[str, Any]] = []
        for turn in self._turns:
            found = self._ops.call("Review", partial(self._files.review, self._key, turn)) or []
            files = [_file_entry(turn, file, self._comments) for file in found]
            if files and self._whole_chat:
                asked = self._asked(turn).strip().splitlines()
                files[0]["turnLabel"] = f"After \u201c{asked[0][:80]}\u201d" if asked else "A turn"
            entries += files
        self._entries = entries
        self._current = max(0, min(self._current, len(self._stops()) - 1))
        self.changed.emit()

    def _on_envelope(self, envelope: Envelope) -> None:
        if not isinstance(envelope, FileChangesEnvelope) or envelope.session_key != self._key:
            return
        if self._whole_chat or envelope.turn_id in self._turns:
            self._refresh()

    # --- what the user does ----------------------------------------------------------------------
    def _open(self, turns: list[str], whole_chat: bool) -> None:
        key = self._shown_key()
        if (self._key, self._turns, self._whole_chat) != (key, turns, whole_chat):
            self._comments = {}
            self.commentsChanged.emit()
        self._key, self._turns, self._whole_chat = key, turns, whole_chat
        self._current, self._said = 0, ""
        self._refresh()

    @Slot(str)
    def openTurn(self, turn_id: str) -> None:
        """Review a turn of the chat shown (its footer's Review button)."""
        self._open([turn_id], False)

    @Slot()
    def openChat(self) -> None:
        """Review every change of the chat shown, turn by turn (Review all changes, Ctrl+Shift+R)."""
        self._open([], True)

    @Slot()
    def close(self) -> None:
        self._turns, self._whole_chat = [], False
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
            turn, path, hunk = stops[self._current]
            self._act(
                "Not kept", lambda: self._files.keep_hunks(self._key, turn, path, [hunk] if hunk else [])
            )

    @Slot()
    def undoCurrent(self) -> None:
        stops = self._stops()
        if not stops:
            return
        turn, path, hunk = stops[self._current]
        if hunk:
            self._act("Not undone", lambda: self._files.undo_hunk(self._key, turn, path, hunk))
        else:
            self._act("Not undone", lambda: self._files.revert(self._key, turn, path))

    @Slot(str, str)
    def keepFile(self, turn: str, path: str) -> None:
        self._act("Not kept", lambda: self._files.keep_hunks(self._key, turn, path, []))

    @Slot(str, str)
    def undoFile(self, turn: str, path: str) -> None:
        self._act("Not undone", lambda: self._files.revert(self._key, turn, path))

    commentCount = Property(
        int,
        lambda self: sum(1 for c in self._comments.values() if c.get("text", "").strip()),
        notify=commentsChanged,
    )

    def _note(self, stop: Stop, **change: Any) -> None:
        """A comment's text or line changed: kept here and in the entry a rebuilt delegate shows (the
        field being typed in is not rebuilt)."""
        comment = self._comments.setdefault(stop, {})
        comment.update(change)
        for entry in self._entries:
            for hunk in entry["hunks"]:
                if (entry["turn"], entry["path"], hunk["id"]) == stop:
                    hunk["comment"], hunk["commentLine"] = comment.get("text", ""), comment.get("line", 0)
        self.commentsChanged.emit()

    @Slot(str, str, str, str)
    def setComment(self, turn: str, path: str, hunk_id: str, text: str) -> None:
        """What the user says about a change (kept while the pane shows its turns)."""
        self._note((turn, path, hunk_id), text=text)

    @Slot(str, str, str, int)
    def setCommentLine(self, turn: str, path: str, hunk_id: str, line: int) -> None:
        """The one line of the change the comment is about (0: the whole change)."""
        self._note((turn, path, hunk_id), line=line)

    @Slot()
    def sendComments(self) -> None:
        """Every comment as one message to the agent, then they are cleared."""
        where: dict[Stop, tuple[str, str]] = {}
        for entry in self._entries:
            for hunk in entry["hunks"]:
                stop = (entry["turn"], entry["path"], hunk["id"])
                line = self._comments.get(stop, {}).get("line", 0)
                where[stop] = (entry["name"], f"line {line}" if line else hunk["lines"])
        said = [
            (*where[stop], c["text"])
            for stop, c in self._comments.items()
            if c.get("text", "").strip() and stop in where
        ]
        if said:
            self._send(comments_prompt(said))
            self._comments = {}
            self.commentsChanged.emit()
            self._refresh()

    @Slot()
    def undoTurn(self) -> None:
        """Undo all of this turn, or of every turn shown (the newest first)."""
        refused: list[str] = []
        for turn in reversed(self._turns):
            refused += self._ops.call("Not undone", partial(self._files.undo_turn, self._key, turn)) or []
        self._said = " ".join(refused)
        self._refresh()

    def _act(self, failed: str, call: Any) -> None:
        self._said = ""
        self._ops.call(failed, call, refused=self._refused)
        self._refresh()
