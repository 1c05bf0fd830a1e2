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
from typing import Any, Protocol

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
    "plan",
    "proposal",
    "cards",
    "footer",
)
IN_PLACE = frozenset({"blocks", "cards"})  # list models that signal their own changes


class RowDecorations(Protocol):
    """What other views know about a row's content; lookups only (no I/O, no signals)."""

    def attachment_cards(self, attachments: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Cards with their current resolution state (unresolved ones are remembered as wanted)."""
        ...

    def inline_images(self, uris: list[str]) -> list[dict[str, Any]]: ...

    def files_changed(self, turn_id: str) -> list[dict[str, Any]]: ...


class RowViews:
    def __init__(
        self,
        presenter: Presenter,
        decorations: RowDecorations,
        owner: QObject,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.presenter = presenter
        self.collapse = CollapseState(clock)
        self._decorations = decorations
        self._owner = owner  # parent of the per-row list models
        self._clock = clock
        self._payloads: dict[RowKey, Payload] = {}
        self._values: dict[RowKey, dict[str, Any]] = {}
        self._blocks: dict[RowKey, BlockListModel] = {}
        self._cards: dict[RowKey, KeyedListModel] = {}

    def value(self, timeline: Timeline, row: Row, role: str) -> Any:
        if role == "kind":
            return row.kind
        if role == "rowKey":
            return str(row.key)
        if role in ("first", "last"):
            return getattr(row, role)
        values = self._values.get(row.key)
        if values is None:
            values = self._build(timeline, row, rebuild=True)
        return values.get(role)

    def list_models(self) -> list[QObject]:
        """The per-row block and attachment-card models alive now."""
        return [*self._blocks.values(), *self._cards.values()]

    def shown(self) -> Iterable[RowKey]:
        """The rows read so far (only they have values to refresh)."""
        return self._values.keys()

    def refresh(self, timeline: Timeline, row: Row, *, rebuild: bool = True) -> set[str]:
        """Recompute a row read before; the names of the roles whose values changed. Without `rebuild`
        only the UI state around the cached payload is recomputed."""
        old = self._values.get(row.key)
        if old is None:
            return set()
        new = self._build(timeline, row, rebuild=rebuild or row.key not in self._payloads)
        return {
            name
            for name in new.keys() | old.keys()
            if name not in IN_PLACE and old.get(name) != new.get(name)
        }

    def forget(self, keys: Iterable[RowKey]) -> None:
        for key in keys:
            self._payloads.pop(key, None)
            self._values.pop(key, None)
            for models in (self._blocks, self._cards):
                model = models.pop(key, None)
                if model is not None:
                    model.deleteLater()

    def clear(self) -> None:
        self.forget(list(self._values))
        self.forget(list(self._blocks) + list(self._cards))
        self.collapse.forget()

    # --- building ------------------------------------------------------------------------------------
    def _build(self, timeline: Timeline, row: Row, *, rebuild: bool) -> dict[str, Any]:
        payload = self._payloads.get(row.key)
        if rebuild or payload is None or row.kind == "turn-footer":
            payload = self._payloads[row.key] = self.presenter.payload(timeline, row, self._clock())
        values = dict(payload)
        if "blocks" in payload:
            values["blocks"] = self._list_model(self._blocks, row.key, payload["blocks"], BlockListModel)
        if "attachments" in payload:
            cards = self._decorations.attachment_cards(payload["attachments"])
            values["cards"] = self._list_model(self._cards, row.key, cards, _cards_model)
            del values["attachments"]
        if payload.get("images"):
            values["images"] = self._decorations.inline_images(payload["images"])
        if "footer" in payload:
            footer = payload["footer"]
            values["footer"] = {
                **footer,
                "files": self._decorations.files_changed(footer.get("messageId") or ""),
            }
        if "tools" in payload:
            self._decorate_tools(row, payload, values)
        if row.kind == "thought":
            values["expanded"] = self.collapse.thought_expanded(row.key, bool(payload.get("streaming")))
        self._values[row.key] = values
        return values

    def _decorate_tools(self, row: Row, payload: Payload, values: dict[str, Any]) -> None:
        collapse = self.collapse
        values["tools"] = [
            {**tool, "expanded": collapse.tool_expanded(tool["id"], tool["status"], tool["historical"])}
            for tool in payload["tools"]
        ]
        summary = payload["summary"]
        # a group stays open while its turn runs, and collapses (after the delay) once the turn ended
        status = "completed" if summary["finished"] and not summary.get("turnLive") else "running"
        values["expanded"] = collapse.tool_expanded(row.key, status, summary["historical"])

    def _list_model(
        self, models: dict[RowKey, Any], key: RowKey, entries: list[dict[str, Any]], make: Any
    ) -> Any:
        """The row's list model: made with its first entries, then updated in place (parented to the
        owner so QML never takes ownership of it)."""
        model = models.get(key)
        if model is None:
            return models.setdefault(key, make(self._owner, entries))
        model.apply(entries)
        return model


def _cards_model(owner: QObject, entries: list[dict[str, Any]]) -> KeyedListModel:
    return KeyedListModel("uri", owner, entries)
