"""Restore to here on real files: after two turns, the files go back to how they were when the first
message was sent (changed ones rewritten, a created one deleted, a deleted one back), the plan listing
each first; a file changed between the plan and the restore is named and left as it is."""

from __future__ import annotations

import pytest

from app.main.review.checkpoints import NoCheckpoint, plan_restore, restore
from app.main.review.turn_changes import TurnChanges


async def _two_turns(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.txt").write_text("a at first\n")
    (work / "b.txt").write_text("b at first\n")
    changes = TurnChanges(tmp_path / "store")
    await changes.before_turn("chat", "m1", [str(work)])
    (work / "a.txt").write_text("a after turn 1\n")
    (work / "b.txt").unlink()
    await changes.after_turn("chat", "m1")
    await changes.before_turn("chat", "m2", [str(work)])
    (work / "a.txt").write_text("a after turn 2\n")
    (work / "new.txt").write_text("made in turn 2\n")
    await changes.after_turn("chat", "m2")
    return work, changes


async def test_restore_to_the_first_message_puts_every_file_back_as_it_was_then(tmp_path):
    work, changes = await _two_turns(tmp_path)
    plan = await plan_restore(changes, "chat", "m1")
    assert {(s.path, s.status) for s in plan.steps} == {
        ("a.txt", "modified"),
        ("b.txt", "created"),  # written back
        ("new.txt", "deleted"),  # made since: removed
    }
    assert restore(changes, plan) == []
    assert (work / "a.txt").read_text() == "a at first\n" and (work / "b.txt").read_text() == "b at first\n"
    assert not (work / "new.txt").exists()

    later = await plan_restore(changes, "chat", "m2")  # the second message's checkpoint: after turn 1
    assert {(s.path, s.status) for s in later.steps} == {("a.txt", "modified"), ("b.txt", "deleted")}


async def test_a_file_changed_after_the_plan_is_left_as_it_is_and_named(tmp_path):
    work, changes = await _two_turns(tmp_path)
    plan = await plan_restore(changes, "chat", "m1")
    (work / "a.txt").write_text("the user typed this after looking\n")
    refused = restore(changes, plan)
    assert len(refused) == 1 and "a.txt changed since ClawQt looked" in refused[0]
    assert (work / "a.txt").read_text() == "the user typed this after looking\n"
    assert (work / "b.txt").read_text() == "b at first\n" and not (work / "new.txt").exists()


async def test_a_message_without_a_snapshot_says_so(tmp_path):
    with pytest.raises(NoCheckpoint, match="no snapshot"):
        await plan_restore(TurnChanges(tmp_path / "store"), "chat", "never-sent")
