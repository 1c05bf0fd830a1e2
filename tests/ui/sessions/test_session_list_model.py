"""The sidebar model applies the session list's entries as a diff: a turn starting (the spinner) changes
one row instead of recreating every delegate mid-stream."""

from __future__ import annotations

from app.renderer.qt.common.keyed_list_model import ENTRY_ROLE, KeyedListModel


def _entries(live: str = "") -> list[dict]:
    return [
        {"key": k, "title": k.upper(), "live": k == live, "unseen": False, "current": False} for k in "abc"
    ]


def _spy(model: KeyedListModel) -> dict[str, list]:
    seen: dict[str, list] = {"changed": [], "reset": [], "inserted": []}
    model.dataChanged.connect(lambda top, bottom, roles=(): seen["changed"].append((top.row(), bottom.row())))
    model.modelReset.connect(lambda: seen["reset"].append(True))
    model.rowsInserted.connect(lambda *args: seen["inserted"].append(args))
    return seen


def test_equal_entries_emit_nothing_and_one_changed_entry_is_one_row_change(model_checks):
    model = model_checks.watch(KeyedListModel())
    model.apply(_entries())
    seen = _spy(model)
    model.apply(_entries())
    assert seen == {"changed": [], "reset": [], "inserted": []}
    model.apply(_entries(live="b"))
    assert seen["changed"] == [(1, 1)] and not seen["reset"]
    assert model.data(model.index(1), ENTRY_ROLE)["live"] is True
    assert model.roleNames()[ENTRY_ROLE].data() == b"modelData"


def test_sessions_that_come_or_go_are_inserted_or_removed_rows_never_a_reset(model_checks):
    """A new chat's row appearing at the top used to reset the list: every delegate recreated while a
    reply streamed."""
    model = model_checks.watch(KeyedListModel())
    model.apply(_entries())
    seen = _spy(model)
    removed: list = []
    model.rowsRemoved.connect(lambda parent, first, last: removed.append((first, last)))
    new_chat = {"key": "n", "title": "N", "live": True, "unseen": False, "current": True}
    model.apply([new_chat, *_entries()])
    assert [args[1:] for args in seen["inserted"]] == [(0, 0)] and not seen["reset"]
    model.apply([new_chat, *_entries()[:2]])
    assert removed == [(3, 3)] and not seen["reset"] and model.rowCount() == 3
    moved = [_entries()[2], new_chat, *_entries()[:2]]
    model.apply(moved)  # an order change: rows move by removal and insertion
    assert [model.data(model.index(r), ENTRY_ROLE)["key"] for r in range(4)] == ["c", "n", "a", "b"]
    assert not seen["reset"]
    assert model.data(model.index(5), ENTRY_ROLE) is None


def test_repeated_keys_reset_the_list(model_checks):
    model = model_checks.watch(KeyedListModel())
    model.apply(_entries())
    seen = _spy(model)
    model.apply([*_entries(), _entries()[0]])
    assert seen["reset"] == [True] and model.rowCount() == 4
