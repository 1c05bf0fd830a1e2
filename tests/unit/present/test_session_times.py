"""The sidebar's groups and relative times, with the clock held: a Thursday afternoon."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.renderer.present.session_times import parse_time, time_group, time_label

NOW = datetime(2026, 12, 3, 15, 30)  # a Thursday


@pytest.mark.parametrize(
    ("updated", "group", "label"),
    [
        (NOW - timedelta(seconds=20), "Today", "now"),
        (NOW - timedelta(minutes=12), "Today", "12 min"),
        (datetime(2026, 12, 3, 0, 5), "Today", "15 h"),
        (datetime(2026, 12, 2, 23, 59), "Yesterday", "Wed"),
        (datetime(2026, 11, 28, 9, 0), "Previous 7 days", "Sat"),
        (datetime(2026, 11, 26, 9, 0), "Previous 30 days", "Nov 26"),
        (datetime(2026, 11, 4, 9, 0), "Previous 30 days", "Nov 4"),
        (datetime(2026, 10, 30, 9, 0), "October", "Oct 30"),
        (datetime(2026, 1, 2, 9, 0), "January", "Jan 2"),
        (datetime(2025, 12, 31, 9, 0), "2025", "Dec 31, 2025"),
        (NOW + timedelta(hours=2), "Today", "now"),  # a clock ahead of ours
        (None, "Today", ""),
    ],
)
def test_a_chat_falls_in_its_group_and_shows_a_short_time(updated, group, label):
    assert time_group(updated, NOW) == group
    assert time_label(updated, NOW) == label


def test_an_agents_times_are_read_as_local_and_nonsense_is_no_time():
    utc = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    assert parse_time("2026-12-03T12:00:00Z") == utc.astimezone().replace(tzinfo=None)
    assert parse_time("2026-12-03T12:00:00+00:00") == parse_time("2026-12-03T12:00:00Z")
    assert parse_time("2026-11-30") == datetime(2026, 11, 30)
    for nonsense in (None, "", "yesterday", 1733230000, "2026-13-40"):
        assert parse_time(nonsense) is None
