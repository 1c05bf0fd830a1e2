"""Property tests over random, also malformed, sequences: the reducer never raises, ids are unique,
every item is in exactly one group, the incremental rows equal a from-scratch grouping, the emitted
changes rebuild the rows exactly, and a batch replay equals the live application."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.renderer.timeline.grouping import Grouping
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import apply_changes
from app.renderer.timeline.serialize import timeline_record
from tests.unit.timeline.strategies import GEN, KEY, envelopes, operations

SETTINGS = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run_live(ops) -> tuple[Timeline, list]:
    timeline = Timeline(KEY, GEN)
    mirror: list = []
    for op in ops:
        changes = timeline.add_optimistic(op[1], op[2]) if isinstance(op, tuple) else timeline.apply(op)
        apply_changes(mirror, changes)
    return timeline, mirror


@SETTINGS
@given(operations)
def test_never_raises_ids_unique_and_changes_rebuild_the_rows(ops):
    timeline, mirror = run_live(ops)
    assert len(timeline.order) == len(set(timeline.order)) == len(timeline.items)
    assert mirror == timeline.rows


@SETTINGS
@given(operations)
def test_every_item_is_in_exactly_one_group(ops):
    timeline, _ = run_live(ops)
    grouped = [item_id for group in timeline.grouping.groups for item_id in group.item_ids]
    assert sorted(grouped) == sorted(timeline.order)
    assert grouped == timeline.order  # groups partition the order, in order


@SETTINGS
@given(operations)
def test_incremental_rows_equal_a_from_scratch_grouping(ops):
    timeline, _ = run_live(ops)
    fresh = Grouping(timeline.items)
    fresh.rebuild(timeline.order)
    assert fresh.rows == timeline.rows
    grouping = timeline.grouping
    assert [grouping.position(row.key) for row in timeline.rows] == list(range(len(timeline.rows)))
    assert all(
        {row.group for row in grouping.rows[g.row_start : g.row_start + g.row_count]} == {g.ref}
        for g in grouping.groups
    )  # each group's rows are where it says they start
    assert [(g.row_start, g.row_count) for g in fresh.groups] == [
        (g.row_start, g.row_count) for g in timeline.grouping.groups
    ]


@SETTINGS
@given(st.lists(envelopes, max_size=40))
def test_batch_replay_equals_live_application(sequence):
    live, _ = run_live(sequence)
    batch = Timeline(KEY, GEN)
    mirror: list = []
    apply_changes(mirror, batch.apply_batch(sequence))
    assert timeline_record(batch) == timeline_record(live)
    assert batch.rows == live.rows == mirror
