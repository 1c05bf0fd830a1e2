"""A turn's changes reviewed hunk by hunk on real files: one of two hunks undone leaves the other, in
the file and in the change set; Keep is remembered; a hunk the user edited since is refused; Undo of
the whole turn puts back every file it can and names the one it cannot."""

from __future__ import annotations

import pytest

from app.main.review.review_desk import ReviewDesk
from app.main.review.turn_changes import TurnChanges
from app.main.review.undo import UndoRefused

OLD = "".join(f"line {n}\n" for n in range(1, 21))
NEW = OLD.replace("line 3\n", "line three\n").replace("line 15\n", "line fifteen\n")


async def _turn(tmp_path, **more: str):
    work = tmp_path / "work"
    work.mkdir()
    (work / "app.py").write_text(OLD)
    for name in more:
        (work / name).write_text("before\n")
    changes = TurnChanges(tmp_path / "store")
    await changes.before_turn("chat", "t1", [str(work)])
    (work / "app.py").write_text(NEW)
    for name, text in more.items():
        (work / name).write_text(text)
    await changes.after_turn("chat", "t1")
    return work, changes, ReviewDesk(changes)


async def test_one_of_two_hunks_undone_leaves_the_other(tmp_path):
    work, changes, desk = await _turn(tmp_path)
    [file] = desk.review("chat", "t1")
    first, _second = file.hunks
    desk.undo_hunk("chat", "t1", str(work / "app.py"), first.id)
    assert (work / "app.py").read_text() == OLD.replace("line 15\n", "line fifteen\n")
    [file] = desk.review("chat", "t1")
    assert [h.new for h in file.hunks] == [("line fifteen\n",)]  # what remains of the turn's change
    assert changes.blobs.read(file.delta.after.digest).decode() == (work / "app.py").read_text()
    desk.undo_hunk("chat", "t1", str(work / "app.py"), file.hunks[0].id)
    assert (work / "app.py").read_text() == OLD and desk.review("chat", "t1") == []  # nothing left


async def test_a_hunk_edited_since_is_refused_and_keep_is_remembered(tmp_path):
    work, _changes, desk = await _turn(tmp_path)
    first, second = desk.review("chat", "t1")[0].hunks
    edited = NEW.replace("line fifteen\n", "line fifteen, and the user's words\n")
    (work / "app.py").write_text(edited)
    with pytest.raises(UndoRefused, match="edited since"):
        desk.undo_hunk("chat", "t1", str(work / "app.py"), second.id)
    assert (work / "app.py").read_text() == edited
    desk.undo_hunk("chat", "t1", str(work / "app.py"), first.id)  # the other one still undoes
    assert (work / "app.py").read_text() == edited.replace("line three\n", "line 3\n")
    desk.keep("chat", "t1", str(work / "app.py"), [second.id])
    assert ReviewDesk(TurnChanges(tmp_path / "store")).review("chat", "t1")[0].kept == {second.id}


async def test_undo_of_the_whole_turn_puts_back_what_it_can_and_names_the_rest(tmp_path):
    work, changes, desk = await _turn(tmp_path, **{"notes.md": "after\n", "todo.md": "after\n"})
    (work / "todo.md").write_text("the user's list\n")
    refused = desk.undo_turn("chat", "t1")
    assert len(refused) == 1 and "todo.md changed since this turn" in refused[0]
    assert (work / "app.py").read_text() == OLD and (work / "notes.md").read_text() == "before\n"
    assert (work / "todo.md").read_text() == "the user's list\n"
    assert [d.path for d in changes.changes("chat", "t1")] == ["todo.md"]
