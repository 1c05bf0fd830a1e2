"""The window objects a conversation row or card may use, handed down as one required property
(`objects`) from the conversation to each delegate and from a row to the cards in it, as NeoChat's
delegates are handed their room: no row or card reads a window-wide name, so what a delegate depends
on is written in its file and a test can build one with objects of its own."""

from __future__ import annotations

from PySide6.QtCore import Property, QObject

ROW_OBJECTS = (
    "app",  # the presentation settings (link colour, motion)
    "icons",
    "timeline",  # the rows' model: toggles
    "agent",  # the turn's mark
    "attachments",
    "conversation",  # links, copying
    "fileChanges",
    "review",  # a footer's Review opens the turn's review
    "checkpoints",  # a user message's Restore to here
    "branching",  # a user message's Continue from here, Edit and resend
    "turn",  # permission answers
    "search",
    "wholeText",
    "paintedTypes",
    "diffs",
    "proposalCards",
    "questions",  # the agent's questions: typed values, Send, Decline
    "rules",  # a permission card's Always allow / Always deny, Undo rule
    "terminals",  # the cards' emulated screens
)


def _constant(name: str) -> Property:
    return Property(QObject, lambda self: self._objects[name], constant=True)


class RowObjects(QObject):
    def __init__(self, objects: dict[str, QObject], parent: QObject | None = None) -> None:
        super().__init__(parent)
        if set(objects) != set(ROW_OBJECTS):
            raise ValueError(f"row objects: {sorted(set(objects) ^ set(ROW_OBJECTS))}")
        self._objects = objects

    app = _constant("app")
    icons = _constant("icons")
    timeline = _constant("timeline")
    agent = _constant("agent")
    attachments = _constant("attachments")
    conversation = _constant("conversation")
    fileChanges = _constant("fileChanges")
    review = _constant("review")
    checkpoints = _constant("checkpoints")
    branching = _constant("branching")
    turn = _constant("turn")
    search = _constant("search")
    wholeText = _constant("wholeText")
    paintedTypes = _constant("paintedTypes")
    diffs = _constant("diffs")
    proposalCards = _constant("proposalCards")
    questions = _constant("questions")
    rules = _constant("rules")
    terminals = _constant("terminals")
