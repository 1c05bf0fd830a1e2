"""Each conversation row's values by role, as the list model serves them: the presenter's payload plus UI
state (expansion) and what other views know (attachment and inline-image states, the files the agent
changed in the turn).

A row's values are built when the view first reads it and kept; after that only `refresh` (called by the
model when the row's items changed, or when UI state it shows changed) rebuilds them and reports which
roles changed. A row's rendered blocks and attachment cards are list models of their own, updated in
place by `refresh`, so reading a row never emits, schedules or asks anything."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from PySide6.QtCore import QObject

from app.renderer.present.presenter import Payload, Presenter
from app.renderer.qt.common.keyed_list_model import KeyedListModel
from app.renderer.qt.conversation.block_model import BlockListModel
from app.renderer.qt.conversation.collapse import CollapseState
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import Row, RowKey

STRUCTURE_ROLES = ("kind", "rowKey", "first", "last")
CONTENT_ROLES = (
    "blocks",
    "text",
    "streaming",
    "expanded",
    "optimistic",
    "errors",
    "images",
    "tools",
    "summary",
    "permission",
    "question",
    "plan",
    "proposal",
    "cards",
    "footer",
    "messageId",
    "outside",
)
IN_PLACE = frozenset({"blocks", "cards"})  # list models that signal their own changes


class RowDecorations(Protocol):
    """What other views know about a row's content; lookups only (no I/O, no signals)."""

    def attachment_cards(self, attachments: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Cards with their current resolution state (unresolved ones are remembered as wanted)."""
        ...

    def inline_images(self, uris: list[str]) -> list[dict[str, Any]]: ...

    def files_changed(self, turn_id: str) -> list[dict[str, Any]]: ...

    def outside_files(self, turn_id: str) -> list[dict[str, Any]]:
        """Files changed outside the chat before the turn of this user message."""
        ...


@dataclass(eq=False)
class RowView:
    """One row's view-side state, as Zed keeps an entry's (`EntryViewState`): the payload it was built
    from, the values served by role, its own list models, and what the user did to it that outlives its
    delegate (a delegate is destroyed or reused for another row when scrolled away)."""

    payload: Payload | None = None
    values: dict[str, Any] | None = None
    blocks: BlockListModel | None = None
    cards: KeyedListModel | None = None
    # the parts the user opened: "file:<path>" (a footer file's diff), "whole:<path>" or
    # "whole:<tool id>:<n>" (a long diff shown whole)
    opened: set[str] = field(default_factory=set)

    def models(self) -> list[QObject]:
        return [model for model in (self.blocks, self.cards) if model is not None]


class RowViews:
    def __init__(
        self,
        presenter: Presenter,
        decorations: RowDecorations,
        owner: QObject,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.presenter = presenter
        self.collapse = CollapseState(clock)  # by row key or tool id: a tool may move between rows
        self._decorations = decorations
        self._owner = owner  # parent of the per-row list models
        self._clock = clock
        self._rows: dict[RowKey, RowView] = {}

    def value(self, timeline: Timeline, row: Row, role: str) -> Any:
        if role == "kind":
            return row.kind
        if role == "rowKey":
            return str(row.key)
        if role in ("first", "last"):
            return getattr(row, role)
        view = self._rows.get(row.key)
        values = view.values if view is not None else None
        if values is None:
            values = self._build(timeline, row, rebuild=True)
        return values.get(role)

    def list_models(self) -> list[QObject]:
        """The per-row block and attachment-card models alive now."""
        return [model for view in self._rows.values() for model in view.models()]

    def shown(self) -> Iterable[RowKey]:
        """The rows read so far (only they have values to refresh)."""
        return [key for key, view in self._rows.items() if view.values is not None]

    def refresh(self, timeline: Timeline, row: Row, *, rebuild: bool = True) -> set[str]:
        """Recompute a row read before; the names of the roles whose values changed. Without `rebuild`
        only the UI state around the cached payload is recomputed."""
        view = self._rows.get(row.key)
        old = view.values if view is not None else None
        if view is None or old is None:
            return set()
        new = self._build(timeline, row, rebuild=rebuild or view.payload is None)
        return {
            name
            for name in new.keys() | old.keys()
            if name not in IN_PLACE and old.get(name) != new.get(name)
        }

    def toggle_part(self, key: RowKey, part: str) -> None:
        """The user opened or closed a part of the row (a file's diff, a long diff shown whole)."""
        self._rows.setdefault(key, RowView()).opened.symmetric_difference_update({part})

    def forget(self, keys: Iterable[RowKey]) -> None:
        for key in keys:
            view = self._rows.pop(key, None)
            if view is not None:
                for model in view.models():
                    model.deleteLater()

    def clear(self) -> None:
        self.forget(list(self._rows))
        self.collapse.forget()

    # --- building ------------------------------------------------------------------------------------
    def _build(self, timeline: Timeline, row: Row, *, rebuild: bool) -> dict[str, Any]:
        view = self._rows.setdefault(row.key, RowView())
        payload = view.payload
        if rebuild or payload is None or row.kind == "turn-footer":
            payload = view.payload = self.presenter.payload(timeline, row, self._clock())
        values = dict(payload)
        if "blocks" in payload:
            view.blocks = _updated(view.blocks, payload["blocks"], lambda e: BlockListModel(self._owner, e))
            values["blocks"] = view.blocks
        if "attachments" in payload:
            cards = self._decorations.attachment_cards(payload["attachments"])
            view.cards = _updated(view.cards, cards, lambda e: KeyedListModel("uri", self._owner, e))
            values["cards"] = view.cards
            del values["attachments"]
        if payload.get("images"):
            values["images"] = self._decorations.inline_images(payload["images"])
        if row.kind == "user":
            values["outside"] = self._decorations.outside_files(payload.get("messageId") or "")
        if "footer" in payload:
            footer = payload["footer"]
            files = self._decorations.files_changed(footer.get("messageId") or "")
            values["footer"] = {**footer, "files": [_opened(file, view.opened) for file in files]}
        if "tools" in payload:
            self._decorate_tools(row, payload, values, view.opened)
        if row.kind == "thought":
            values["expanded"] = self.collapse.thought_expanded(row.key, bool(payload.get("streaming")))
        view.values = values
        return values

    def _decorate_tools(self, row: Row, payload: Payload, values: dict[str, Any], opened: set[str]) -> None:
        collapse = self.collapse
        values["tools"] = [
            {
                **tool,
                "expanded": collapse.tool_expanded(tool["id"], tool["status"], tool["historical"]),
                "wholeDiffs": [
                    n for n in range(len(tool.get("diffs", ()))) if f"whole:{tool['id']}:{n}" in opened
                ],
            }
            for tool in payload["tools"]
        ]
        summary = payload["summary"]
        # a group stays open while its turn runs, and collapses (after the delay) once the turn ended
        status = "completed" if summary["finished"] and not summary.get("turnLive") else "running"
        values["expanded"] = collapse.tool_expanded(row.key, status, summary["historical"])


def _opened(file: dict[str, Any], opened: set[str]) -> dict[str, Any]:
    path = file.get("path")
    return {**file, "open": f"file:{path}" in opened, "whole": f"whole:{path}" in opened}


Model = TypeVar("Model", BlockListModel, KeyedListModel)


def _updated(
    model: Model | None, entries: list[dict[str, Any]], make: Callable[[list[dict[str, Any]]], Model]
) -> Model:
    """A row's list model: made with its first entries, then updated in place (parented to the owner,
    so QML never takes ownership of it)."""
    if model is None:
        return make(entries)
    model.apply(entries)
    return model
