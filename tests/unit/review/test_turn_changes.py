"""A turn's change set from its two snapshots, kept across a restart of ClawQt (a new TurnChanges over
the same folder), with what the user undid remembered and a file changed since never overwritten."""

from __future__ import annotations

import pytest

from app.main.review.manifest import Manifest
from app.main.review.turn_changes import TurnChanges
from app.main.review.undo import UndoRefused


async def test_a_turns_changes_survive_a_restart_and_an_undo_is_remembered(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.txt").write_text("a\n")
    (work / "b.txt").write_text("b\n")
    store = tmp_path / "store"
    first = TurnChanges(store)
    await first.before_turn("chat", "t1", [str(work)])
    (work / "a.txt").write_text("a, edited\n")
    (work / "b.txt").unlink()
    deltas = await first.after_turn("chat", "t1")
    assert {(d.path, d.status) for d in deltas} == {("a.txt", "modified"), ("b.txt", "deleted")}
    first.close()

    again = TurnChanges(store)  # the next start
    assert again.turns("chat") == ["t1"]
    changed = {d.path: d for d in again.changes("chat", "t1")}
    again.undo_now("chat", "t1", changed["b.txt"])
    assert (work / "b.txt").read_text() == "b\n"
    assert [d.path for d in again.changes("chat", "t1")] == ["a.txt"]
    (work / "a.txt").write_text("the user's edit\n")
    with pytest.raises(UndoRefused, match="changed since this turn"):
        again.undo_now("chat", "t1", changed["a.txt"])
    assert (work / "a.txt").read_text() == "the user's edit\n"
    again.close()
    assert [d.path for d in TurnChanges(store).changes("chat", "t1")] == ["a.txt"]


async def test_a_turn_that_changed_nothing_is_not_listed(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.txt").write_text("a\n")
    changes = TurnChanges(tmp_path / "store")
    await changes.before_turn("chat", "t1", [str(work)])
    assert await changes.after_turn("chat", "t1") == []
    assert changes.turns("chat") == [] and changes.changes("chat", "t1") == []


async def test_what_changed_between_two_turns_is_the_users_not_the_agents(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.txt").write_text("a\n")
    changes = TurnChanges(tmp_path / "store")
    await changes.before_turn("chat", "t1", [str(work)])
    (work / "a.txt").write_text("a by the agent\n")
    await changes.after_turn("chat", "t1")
    (work / "notes.md").write_text("the user's own notes\n")  # between the turns
    await changes.before_turn("chat", "t2", [str(work)])
    (work / "a.txt").write_text("a by the agent again\n")
    await changes.after_turn("chat", "t2")
    assert [(d.path, d.status) for d in changes.outside("chat", "t2")] == [("notes.md", "created")]
    assert [d.path for d in changes.changes("chat", "t2")] == ["a.txt"]  # not the user's file
    assert changes.outside("chat", "t1") == [] and changes.outside_turns("chat") == ["t2"]
    again = TurnChanges(tmp_path / "store")  # after a restart
    assert [d.path for d in again.outside("chat", "t2")] == ["notes.md"]


async def test_a_turn_whose_first_snapshot_failed_settles_without_a_change_set(tmp_path):
    blocked = tmp_path / "data"
    blocked.write_text("a file where the data folder should be")
    changes = TurnChanges(blocked / "review")
    with pytest.raises(OSError):
        await changes.before_turn("chat", "t1", [str(tmp_path)])
    assert await changes.after_turn("chat", "t1") == []
    assert changes.changes("chat", "t1") == [] and changes.turns("chat") == []


async def test_a_folder_too_big_to_track_is_not_walked_again_every_turn(tmp_path, monkeypatch):
    from app.main.review import folder_scan, turn_changes

    monkeypatch.setattr(folder_scan, "MAX_FILES", 5)
    work = tmp_path / "work"
    work.mkdir()
    for index in range(8):
        (work / f"f{index}.txt").write_text("x")
    changes = TurnChanges(tmp_path / "store")
    walks: list[str] = []
    real = folder_scan.Scan.run
    monkeypatch.setattr(folder_scan.Scan, "run", lambda self: walks.append(self.root) or real(self))
    await changes.before_turn("chat", "t1", [str(work)])
    await changes.after_turn("chat", "t1")
    assert len(walks) == 1 and "more than 5 files" in changes.notes("chat", "t1")[0]
    monkeypatch.setattr(turn_changes, "TOO_BIG_RECHECK_NS", 0)  # the verdict's time is up
    await changes.before_turn("chat", "t2", [str(work)])
    assert len(walks) == 2


async def test_a_chat_shown_after_a_restart_reads_its_change_sets_not_its_snapshots(tmp_path, monkeypatch):
    """Every turn's change set (and what changed outside the chat) is stored when the turn settles:
    listing a chat's changes after a restart decodes no snapshot of its folders."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.txt").write_text("a\n")
    changes = TurnChanges(tmp_path / "store")
    for turn in ("t1", "t2"):
        (work / "user.txt").write_text(f"the user before {turn}\n")
        await changes.before_turn("chat", turn, [str(work)])
        (work / "a.txt").write_text(f"a in {turn}\n")
        await changes.after_turn("chat", turn)
    changes.close()

    def no_snapshot(*_args, **_kwargs):
        raise AssertionError("a snapshot was decoded")

    monkeypatch.setattr(Manifest, "decode", classmethod(no_snapshot))
    again = TurnChanges(tmp_path / "store")
    assert again.turns("chat") == ["t1", "t2"]
    assert [(d.path, d.status) for d in again.changes("chat", "t2")] == [("a.txt", "modified")]
    assert [(d.path, d.status) for d in again.outside("chat", "t2")] == [("user.txt", "modified")]
    delta = again.changes("chat", "t2")[0]
    assert delta.before is not None and delta.after is not None and delta.before.digest != delta.after.digest
