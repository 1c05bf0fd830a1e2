"""The conversation's list model on its own (no window): reading is pure, `dataChanged` names the roles
that changed, view rows are timeline rows reversed, and Qt's model checker finds nothing wrong through
inserts, changes, removals and resets. Real parts around it: the reducer, the presenter, and the row
decorations of a real (not started) chat service's host API."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, Qt

from app.contract.envelopes import PromptSettledEnvelope
from app.main.agents.command import AgentCommand
from app.main.host.make import make_host
from app.main.sessions.service import ChatService
from app.renderer.qt.conversation import timeline_model
from app.renderer.qt.conversation.timeline_model import ROLE_IDS, ROLE_NAMES, TimelineModel, view_row
from app.renderer.qt.window import ChatObjects
from app.renderer.timeline.reducer import Timeline
from tests.conftest import scripted_agent_argv
from tests.model_checks import ModelChecks
from tests.unit.timeline.helpers import GEN, KEY, agent, permission, resolved, thought, tool, update, user


@pytest.fixture
def objects(qapp, tmp_path: Path):
    """The window's objects on a real host API; the agent is never started (rows come from envelopes)."""
    service = ChatService(
        AgentCommand(scripted_agent_argv(), "flag", "test"), cwd=str(tmp_path), log_path=tmp_path / "e.log"
    )
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    made = ChatObjects(make_host(service))
    yield made
    made.deleteLater()
    loop.close()
    asyncio.set_event_loop(None)


def _timeline() -> Timeline:
    """Every row kind: a question, a thought, prose, a tool group, a permission, a plan, attachments."""
    timeline = Timeline(KEY, GEN)
    link = {"type": "resource_link", "uri": "file:///tmp/report.md", "name": "report.md"}
    for envelope in (
        user("What is in the repo?"),
        thought("let me look", "th-1"),
        agent("Here is what I found.", "m-1"),
        tool("t1", title="ls", status="completed"),
        tool("t2", title="cat notes", status="in_progress"),
        permission("p1", "allow", "deny"),
        update("plan", entries=[{"content": "read", "status": "completed"}]),
        agent(link, "m-2"),
    ):
        timeline.apply(envelope)
    return timeline


def _read_all(model: TimelineModel) -> list[list[Any]]:
    return [[model.data(model.index(r), role) for role in ROLE_IDS.values()] for r in range(model.rowCount())]


class _Signals:
    """Counts every signal a model (and the row models it hands out) emits."""

    NAMES = ("dataChanged", "rowsInserted", "rowsRemoved", "modelReset", "layoutChanged")

    def __init__(self) -> None:
        self.count = 0

    def watch(self, model: QObject) -> None:
        for name in self.NAMES:
            getattr(model, name).connect(self._seen)

    def _seen(self, *args: Any) -> None:
        self.count += 1


def test_reading_every_role_of_every_row_twice_is_pure(objects):
    timeline = _timeline()
    timeline.add_optimistic("user:9", "and now a long answer", sent_at=0.0)
    timeline.apply(agent("word " * 150_000, "m-9"))  # streaming: dozens of reveal steps
    model = objects.model
    model.set_timeline(timeline)
    signals = _Signals()
    signals.watch(model)
    first = _read_all(model)  # the first read builds each row's values ...
    for model_value in objects.model.views.list_models():
        signals.watch(model_value)
    second = _read_all(model)  # ... and every later read only looks them up
    assert first == second
    assert signals.count == 0  # nothing emitted while reading
    assert len(objects.tasks) == 0  # no host call started (an attachment is resolved after a frame)
    assert {name for name in ROLE_NAMES} == set(
        model.roleNames()[r].data().decode() for r in ROLE_IDS.values()
    )
    kinds = [model.data(model.index(r), ROLE_IDS["kind"]) for r in range(model.rowCount())]
    assert set(kinds) >= {"user", "thought", "assistant-text", "tool-group", "permission", "plan"}


def test_a_streaming_burst_is_revealed_by_refreshes_never_by_reading(objects):
    timeline = Timeline(KEY, GEN)
    timeline.add_optimistic("user:1", "write a lot", sent_at=0.0)
    timeline.apply(agent("word " * 20_000, "m-1"))  # 100 KB at once
    model = objects.model
    model.set_timeline(timeline)
    presenter = model.views.presenter
    [row] = [r for r in model.rows if r.kind == "assistant-text"]
    at = model.view_row_of_key(row.key)
    blocks = model.data(model.index(at), ROLE_IDS["blocks"])
    shown = sum(len(b["html"]) for b in blocks.blocks)
    assert row.item_ids[0] in presenter.rows_behind
    for _ in range(5):
        model.data(model.index(at), ROLE_IDS["blocks"])
    assert sum(len(b["html"]) for b in blocks.blocks) == shown  # reading reveals nothing more
    presenter.frame_drawn()  # what the after-frame scheduler does
    model.refresh_items(presenter.rows_behind, rebuild=True)
    assert sum(len(b["html"]) for b in blocks.blocks) > shown


def _changed_roles(model: TimelineModel) -> list[set[str]]:
    seen: list[set[str]] = []
    names = {role: name for name, role in ROLE_IDS.items()}
    model.dataChanged.connect(lambda top, bottom, roles=(): seen.append({names[r] for r in roles}))
    return seen


def test_data_changed_names_exactly_the_roles_that_changed(objects):
    timeline = _timeline()
    model = objects.model
    model.set_timeline(timeline)
    _read_all(model)
    seen = _changed_roles(model)

    model.push(timeline.apply(resolved("p1", "allow")))
    model.flush()
    assert seen == [{"permission"}]

    seen.clear()
    [thought_row] = [r for r in model.rows if r.kind == "thought"]
    model.toggle(model.view_row_of_key(thought_row.key), "", False)
    assert seen == [{"expanded"}]

    seen.clear()
    model.push(timeline.apply(tool("t2", "tool_call_update", status="completed")))
    model.flush()
    assert seen and seen[0] <= {"tools", "summary", "expanded"} and "tools" in seen[0]

    seen.clear()
    model.push(timeline.apply(agent(" More.", "m-1")))  # prose grows: its block model updates itself
    model.flush()
    assert all("blocks" not in roles for roles in seen)
    assert all(roles for roles in seen)  # never an empty list (that would mean "every role")


def test_rows_updated_names_the_changed_rows_where_the_view_shows_them_after_the_flush(objects, monkeypatch):
    """The view lays out the rows a flush changed before the frame (Conversation.qml): it is told their
    view rows as they are after the whole flush, also when rows were inserted below them, and also for
    prose whose block list changed in place (no role of the row itself changed)."""
    timeline = Timeline(KEY, GEN)
    for envelope in (user("What is in the repo?"), thought("let me look", "th-1"), agent("Here.", "m-1")):
        timeline.apply(envelope)
    model = objects.model
    model.set_timeline(timeline)
    _read_all(model)
    told: list[list[int]] = []
    model.rowsUpdated.connect(told.append)
    [prose] = [r for r in model.rows if r.kind == "assistant-text"]

    model.push(timeline.apply(agent(" More.", "m-1")))  # grows in place
    model.push(timeline.apply(user("And then?")))  # a new row below it, in the same flush
    model.flush()
    assert told == [[model.view_row_of_key(prose.key)]]
    assert model.row_at(told[0][0]) is not None and model.row_at(told[0][0]).key == prose.key

    told.clear()
    [thought_row] = [r for r in model.rows if r.kind == "thought"]
    model.toggle(model.view_row_of_key(thought_row.key), "", False)  # a refresh outside a flush
    assert told == [[model.view_row_of_key(thought_row.key)]]

    told.clear()
    monkeypatch.setattr(timeline_model, "FEW_ROWS", 1)  # more rows than that: found in one pass
    model.refresh(lambda row: True)
    shown = sorted(model.view_row_of_key(key) for key in model.views.shown())
    assert len(shown) > 1 and told == [shown]


def test_view_rows_are_timeline_rows_reversed_and_reading_a_timeline_row_as_a_view_row_is_wrong(objects):
    """Why the window tests find a row by its key: the view shows rows newest first, so a timeline row
    number read as a view row names another row (a tool row read that way has no `tools`)."""
    model = objects.model
    model.set_timeline(_timeline())
    rows = model.rows
    count = len(rows)
    for at, row in enumerate(rows):
        shown = model.view_row_of_key(row.key)
        assert shown == view_row(count, at) and model.row_at(shown) is row
        assert model.data(model.index(shown), ROLE_IDS["rowKey"]) == str(row.key)
    [tool_row] = [r for r in rows if r.kind == "tool-group"]
    right = model.data(model.index(model.view_row_of_key(tool_row.key)), ROLE_IDS["tools"])
    wrong = model.data(model.index(rows.index(tool_row)), ROLE_IDS["tools"])
    assert [t["id"] for t in right] == ["tool:t1", "tool:t2"] and wrong is None
    assert model.view_row_of_key(tool_row.key._replace(item="nothing")) == -1


def test_the_model_passes_qts_model_checker_through_every_kind_of_change(objects):
    checks = ModelChecks()
    try:
        model = objects.model
        checks.watch(model)
        timeline = Timeline(KEY, GEN)
        model.set_timeline(timeline)
        model.push(timeline.apply(agent("before")))
        model.push(timeline.add_optimistic("user:1", "a question", sent_at=0.0))
        model.flush()
        _read_all(model)
        for model_value in model.views.list_models():
            checks.watch(model_value)
        model.push(timeline.apply(thought("hm")))
        model.push(timeline.apply(tool("t1", title="ls")))
        model.push(timeline.apply(tool("t2", title="cat")))  # the tool row becomes a group
        model.flush()
        failed = PromptSettledEnvelope(KEY, GEN, "user:1", None, "unreachable", 0.0)
        model.push(timeline.apply(failed))  # the turn stays: the agent had answered
        model.push(timeline.apply(user("second")))
        model.flush()
        model.refresh(lambda row: True, rebuild=True)
        model.set_timeline(_timeline())
        _read_all(model)
        model.set_timeline(None)
        checks.assert_clean()
    finally:
        checks.close()


class _BrokenModel(QAbstractListModel):
    """Grows without telling its views (no beginInsertRows/endInsertRows)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 1

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.count

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        return "x" if index.isValid() else None


def test_the_model_checker_reports_a_broken_model(qapp):
    """The check can fail: rows appearing without the begin/end signals are reported."""
    checks = ModelChecks()
    try:
        broken = _BrokenModel()
        checks.watch(broken)
        broken.count = 3
        broken.dataChanged.emit(broken.index(2), broken.index(2))
        assert checks.failures
    finally:
        checks.close()
