"""An agent's listed `updatedAt` dates a chat indexed unseen: ISO dates and times read, anything else
left to the time it was indexed."""

from __future__ import annotations

from datetime import UTC, datetime

from app.main.search.backfill import _epoch


def test_a_listed_update_time_is_read_and_anything_else_is_none():
    assert _epoch("2026-11-30") == datetime(2026, 11, 30).timestamp()
    assert _epoch("2026-11-30T10:00:00Z") == datetime(2026, 11, 30, 10, tzinfo=UTC).timestamp()
    assert _epoch("yesterday") is None and _epoch(None) is None and _epoch("") is None
