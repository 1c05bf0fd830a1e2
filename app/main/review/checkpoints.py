"""Every user message is a checkpoint: the snapshot of the chat's folders taken just before it was
sent. Restore to here puts the files back as they were then: first a plan (the folders scanned now and
compared with the checkpoint, so the user sees every file that will change before anything does), then
the restore, each file written only if it is still what the plan saw (a file changed in between is
named and left as it is), through the same confined writer as an undo."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.main.review.change_sets import FileDelta, difference
from app.main.review.turn_changes import TurnChanges, describe
from app.main.review.undo import UndoRefused, undo


class NoCheckpoint(Exception):
    """The message has no snapshot to go back to (sent before ClawQt tracked changes, or untracked)."""


@dataclass(frozen=True)
class RestorePlan:
    chat: str
    turn: str
    # from the folder now (`before`) to the checkpoint (`after`): what restoring writes
    steps: tuple[FileDelta, ...]
    notes: tuple[str, ...] = field(default=())


async def plan_restore(changes: TurnChanges, chat: str, turn: str) -> RestorePlan:
    """What Restore to here would change (the folders scanned now)."""
    checkpoint = changes.index.of_turn(chat, turn, "before")
    if not checkpoint:
        raise NoCheckpoint("ClawQt has no snapshot of the files from when this message was sent")
    steps: list[FileDelta] = []
    notes: list[str] = []
    for root, then in checkpoint.items():
        if then.notes.too_big:
            notes.append(then.notes.too_big)
            continue
        now = await changes.snapshot(root)
        notes += describe(now)
        steps += difference(now, then)
    return RestorePlan(chat, turn, tuple(steps), tuple(notes))


def restore(changes: TurnChanges, plan: RestorePlan) -> list[str]:
    """Carry out the plan; the sentences of the files left as they are (the rest are restored)."""
    refused = []
    for step in plan.steps:
        # undo() puts back `before` when the file is still `after`: here, the checkpoint over now
        try:
            undo(FileDelta(step.root, step.path, before=step.after, after=step.before), changes.blobs)
        except UndoRefused as exc:
            refused.append(str(exc).replace("since this turn", "since ClawQt looked"))
    return refused
