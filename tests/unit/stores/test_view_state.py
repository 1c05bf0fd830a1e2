"""The window's placement and each chat's view as the main side keeps them (app/main/stores/view_state.py):
kept across a restart, only usable values read back from a file (wrong types, out of range, unknown fields
dropped; too many cards capped), the views of the chats changed last kept, a file that is not JSON
reported and set aside like any local store's."""

from __future__ import annotations

import json

from app.contract.local_stores import MAX_TILES
from app.main.core.problems import LocalProblems
from app.main.stores.view_state import MAX_CHATS, MAX_TOGGLED, ViewStates, chat_view, window_placement


def test_the_window_and_a_chats_view_come_back_after_a_restart(tmp_path):
    views = ViewStates(tmp_path)
    views.set_window(
        {
            "x": 10,
            "y": -20,
            "width": 900,
            "height": 600,
            "maximized": True,
            "openChat": "s1",
            "splits": {"main": "AAEC"},
            "tiles": ["s2", "s3"],
        }
    )
    views.set_chat(
        "s1",
        {
            "atEnd": False,
            "anchor": "block:a:0",
            "row": 12,
            "offset": 3.5,
            "toggled": [{"slot": "", "item": "tool:t1", "open": True}],
        },
    )
    again = ViewStates(tmp_path)
    assert again.window() == {
        "x": 10,
        "y": -20,
        "width": 900,
        "height": 600,
        "maximized": True,
        "openChat": "s1",
        "splits": {"main": "AAEC"},
        "tiles": ["s2", "s3"],
    }
    assert again.chat("s1")["toggled"] == [{"slot": "", "item": "tool:t1", "open": True}]
    assert again.chat("s1")["row"] == 12 and again.chat("elsewhere") == {"toggled": []}


def test_only_usable_values_are_read_from_a_hostile_file(tmp_path):
    placement = {
        "x": "10",
        "y": True,
        "width": 50,
        "height": 10**9,
        "maximized": "yes",
        "openChat": 7,
        "splits": {"main": "x" * 10_000, "chat": "AAEC", "": "AAEC"},
        "unknown": 1,
    }
    assert window_placement(placement) == {"splits": {"chat": "AAEC"}}
    view = {
        "atEnd": 1,
        "anchor": ["x"],
        "row": -3,
        "offset": float("nan"),
        "toggled": [
            {"slot": "", "item": "t", "open": True},
            {"slot": 1, "item": "t", "open": True},
            {"slot": "", "item": "u"},
            "junk",
        ],
    }
    assert chat_view(view) == {"toggled": [{"slot": "", "item": "t", "open": True}]}
    many = {"toggled": [{"slot": "", "item": f"t{i}", "open": True} for i in range(MAX_TOGGLED + 50)]}
    assert len(chat_view(many)["toggled"]) == MAX_TOGGLED
    assert chat_view({"offset": 1e300})["offset"] == 100_000.0
    assert window_placement([1, 2]) is None and chat_view("x") is None


def test_the_tiles_read_back_are_chat_keys_at_most_max_tiles_each_once():
    tiles = ["a", 7, "", None, "b", "a", "x" * 100_000, "c", "d", "e"]
    assert window_placement({"tiles": tiles}) == {"tiles": ["a", "b", "c"][:MAX_TILES]}
    assert window_placement({"tiles": "a"}) == {}


def test_the_views_of_the_chats_changed_last_are_kept(tmp_path):
    views = ViewStates(tmp_path)
    for i in range(MAX_CHATS + 5):
        views.set_chat(f"s{i}", {"atEnd": False, "row": i})
    views.set_chat("s2", {"atEnd": False, "row": 99})  # changed again: now the most recent
    kept = json.loads((tmp_path / "chat-views.json").read_text())
    assert len(kept) == MAX_CHATS and "s0" not in kept and "s1" not in kept and list(kept)[-1] == "s2"


def test_a_window_state_that_is_not_json_is_reported_and_set_aside(tmp_path):
    (tmp_path / "window-state.json").write_text("{not json")
    problems = LocalProblems()
    views = ViewStates(tmp_path, problems)
    assert views.window() == {}
    [problem] = problems.reported()
    assert "window state file" in problem.text and "kept as window-state.json.corrupt-" in problem.text


def test_a_placement_handed_out_is_a_copy_so_a_later_pane_resize_is_still_saved(tmp_path):
    views = ViewStates(tmp_path)
    views.set_window({"width": 900, "height": 600, "splits": {"main": "AAEC"}})
    restarted = ViewStates(tmp_path)
    placement = restarted.window()
    placement["splits"]["main"] = "BBEC"  # the window notes a pane the user dragged after the restart
    assert restarted.window()["splits"] == {"main": "AAEC"}  # the store is not changed behind its back
    restarted.set_window(placement)
    assert json.loads((tmp_path / "window-state.json").read_text())["window"]["splits"] == {"main": "BBEC"}
