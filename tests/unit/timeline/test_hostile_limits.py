"""The limits on what an agent's input costs, checked on the pure parts: diffs are made only for a
changed region small enough to show, parked terminal output is bounded and dropped when the turn ends,
a permission request offers at most a hundred options (a reject among them), and the store drops the
timelines of chats no longer shown."""

from __future__ import annotations

import difflib
import random

from app.contract.diffs import MAX_DIFF_CHARS, MAX_DIFF_LINES, _diff_lines, too_large, unified_diff
from app.contract.envelopes import LoadResult, PromptSettledEnvelope
from app.main.sessions.machine import SessionMachine
from app.main.sessions.permissions import MAX_OPTIONS, shown_options
from app.renderer.present.diff_view import parse_unified
from app.renderer.timeline.items import ToolCall
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.store import TimelineStore
from app.renderer.timeline.terminals import (
    PARKED_CHARS_PER_ID,
    PARKED_CHARS_TOTAL,
    PARKED_IDS,
    TerminalRegistry,
)
from tests.unit.timeline.helpers import GEN, KEY, settled, tool, update


def _rewrite(lines: int) -> tuple[str, str]:
    old = "".join(f"value_{n} = compute({n})\n" for n in range(lines))
    new = "".join(f"value_{n} = calculate({n}, cache=True)\n" for n in range(lines))
    return old, new


# --- diffs ------------------------------------------------------------------------------------------
def test_a_rewritten_60000_line_file_is_a_summary_with_its_counts_not_a_diff():
    old, new = _rewrite(60_000)
    diff = unified_diff(old, new, "/w/big.py")
    summary = too_large(diff)
    assert summary is not None and len(diff) < 200
    assert (summary.path, summary.created, summary.start) == ("/w/big.py", False, 1)
    assert (summary.removed, summary.added) == (60_000, 60_000)
    assert summary.sentence() == (
        "Diff too large to show: 120,000 lines changed (60,000 removed, 60,000 added, lines 1\u201360,000)."
    )
    assert parse_unified(diff)[0].lines == ()  # the parser finds no hunk to read in it


def test_a_created_file_past_the_limit_is_a_summary_too():
    summary = too_large(unified_diff(None, "".join(f"{n}\n" for n in range(MAX_DIFF_LINES + 1)), "n.txt"))
    assert summary is not None and summary.created and (summary.removed, summary.added) == (0, 10_001)


def test_a_few_very_long_lines_are_past_the_character_limit():
    diff = unified_diff("a" * MAX_DIFF_CHARS + "\n", "b" * MAX_DIFF_CHARS + "\n", "long.txt")
    assert too_large(diff) is not None


def test_a_small_edit_in_a_huge_file_is_a_real_diff_numbered_as_in_the_whole_file():
    old, _ = _rewrite(60_000)
    new = old.replace("value_30000 = compute(30000)\n", "value_30000 = compute(30001)\n")
    diff = unified_diff(old, new, "big.py")
    assert too_large(diff) is None
    assert "@@ -29998,7 +29998,7 @@" in diff
    [file] = parse_unified(diff)
    assert (file.added, file.removed) == (1, 1)


def test_diffs_of_the_changed_region_equal_difflib_over_the_whole_text():
    """Random edits (several, near the ends too, with and without a final newline): the region's diff,
    renumbered, is exactly what difflib gives for the whole texts."""
    rng = random.Random(7)
    for _ in range(200):
        old = [f"line {n}\n" for n in range(rng.randint(0, 40))]
        new = list(old)
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(new))
            action = rng.choice(("insert", "delete", "change"))
            if action == "insert" or not new or at == len(new):
                new.insert(at, f"new {rng.random()}\n")
            elif action == "delete":
                del new[at]
            else:
                new[at] = f"changed {rng.random()}\n"
        old_text, new_text = "".join(old), "".join(new)
        if rng.random() < 0.2 and new_text:
            new_text = new_text[:-1]  # no final newline
        whole = difflib.unified_diff(_diff_lines(old_text), _diff_lines(new_text), "f", "f", n=3)
        expected = "".join(whole)
        assert unified_diff(old_text, new_text, "f") == expected


def test_an_unchanged_text_has_an_empty_diff():
    old, _ = _rewrite(20_000)
    assert unified_diff(old, old, "same.py") == ""


# --- parked terminal output ------------------------------------------------------------------------
def test_output_for_ids_no_tool_names_is_capped_per_id_in_total_and_in_ids():
    registry = TerminalRegistry()
    tool_item = ToolCall(id="tool:t")
    piece = "x" * 63 + "\n"
    for n in range(200):
        for _ in range(2048 * 1024 // len(piece) // 16):  # 128 KB each, in 64-character chunks
            registry.apply_meta(tool_item, {"terminal_output_delta": {"terminal_id": f"T{n}", "data": piece}})
    total = sum(state.size for state in registry.parked.values())
    assert total <= PARKED_CHARS_TOTAL and len(registry.parked) <= PARKED_IDS
    assert "T199" in registry.parked and "T0" not in registry.parked  # the oldest went first
    for _ in range(3):
        registry.apply_meta(tool_item, {"terminal_output": {"terminal_id": "big", "data": "y" * 200_000}})
    big = registry.parked["big"]
    assert big.size <= PARKED_CHARS_PER_ID and big.trimmed and big.output.endswith("y" * 1000)


def test_output_parked_when_the_turn_ends_is_dropped_and_a_named_terminal_keeps_its_own():
    timeline = Timeline(KEY, GEN)
    timeline.add_optimistic("c1", "run it", sent_at=0.0)
    timeline.apply(tool("t", kind="execute", _meta={"terminal_info": {"terminal_id": "mine"}}))
    for terminal_id in ("mine", "nobody"):
        meta = {"terminal_output": {"terminal_id": terminal_id, "data": "z" * 300_000}}
        timeline.apply(tool("t", "tool_call_update", _meta=meta))
    assert timeline.items["tool:t"].terminals["mine"].size == 300_000  # a card's own cap, not parking's
    assert timeline.terminals.parked["nobody"].size <= PARKED_CHARS_PER_ID
    timeline.apply(settled("c1"))
    assert timeline.terminals.parked == {}


# --- permission options ----------------------------------------------------------------------------
def _options(count: int, deny_at: int) -> tuple[dict, ...]:
    options = [{"optionId": f"o{n}", "name": f"Option {n}", "kind": "allow_once"} for n in range(count)]
    options.insert(deny_at, {"optionId": "deny", "name": "Deny", "kind": "reject_once"})
    return tuple(options)


def test_at_most_a_hundred_options_are_offered_with_the_reject_among_them_in_the_agents_order():
    options = _options(10_000, 10_000)
    shown = shown_options(options)
    assert len(shown) == MAX_OPTIONS == 100
    assert shown[-1]["optionId"] == "deny" and [o["optionId"] for o in shown[:3]] == ["o0", "o1", "o2"]
    few = _options(5, 2)
    assert shown_options(few) is few


def test_only_an_offered_option_answers_a_request_with_ten_thousand_options():
    machine = SessionMachine()
    machine.on_send({"id": 1, "method": "session/new", "params": {"cwd": "/w", "mcpServers": []}})
    machine.on_recv({"id": 1, "result": {"sessionId": "acp-a"}})
    prompt = {"sessionId": "acp-a", "prompt": [], "_meta": {"messageId": "user:m1"}}
    machine.on_send({"id": 2, "method": "session/prompt", "params": prompt})
    params = {"sessionId": "acp-a", "toolCall": {"toolCallId": "t"}, "options": list(_options(10_000, 0))}
    asked = machine.on_recv({"id": 7, "method": "session/request_permission", "params": params})
    [envelope] = asked.envelopes
    assert len(envelope.options) == 100 and envelope.options[0]["optionId"] == "deny"
    assert [i.code for i in asked.ignored] == ["permission-options-capped"]
    assert machine.answer_permission("rpc-7", "o5000").answers == []  # the agent's, but never shown
    assert machine.answer_permission("rpc-7", "deny").answers == [(7, "deny")]


# --- the store --------------------------------------------------------------------------------------
def _load(store: TimelineStore, key: str, generation: int) -> Timeline:
    timeline, _ = store.load(LoadResult(key, generation, "/w", ()))
    return timeline


def test_the_store_keeps_the_shown_timeline_and_live_ones_and_drops_the_rest():
    store = TimelineStore()
    old = _load(store, "old", 1)
    old.apply(update("session_info_update", session="old", generation=1, title="Fix the bug"))
    live = _load(store, "live", 2)
    live.add_optimistic("c1", "still running", sent_at=0.0)
    _load(store, "shown", 3)
    store.keep_only("shown")
    assert set(store.timelines) == {"shown", "live"}
    assert store.title_of("old") == "Fix the bug"  # the sidebar still names it
    live.apply(PromptSettledEnvelope("live", 2, "c1", "end_turn", None, 1.0))
    store.keep_only("shown")
    assert set(store.timelines) == {"shown"}
