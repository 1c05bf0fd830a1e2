"""The suite's guard against asyncio errors nobody retrieved still sees one after earlier tests froze
the heap (tests/task_errors.py)."""

from __future__ import annotations

import asyncio
import gc

from tests.task_errors import NeverRetrieved, collect_what_the_test_left


def _a_failed_task_in_a_cycle() -> None:
    """A task whose exception holds the task: only a garbage collection frees it and reports it."""
    loop = asyncio.new_event_loop()
    try:
        holder: list[asyncio.Task[None]] = []

        async def fail() -> None:
            raise LookupError(holder)

        task = loop.create_task(fail())
        holder.append(task)
        loop.run_until_complete(asyncio.wait([task]))
    finally:
        loop.close()


def test_an_error_nobody_retrieved_is_seen_when_the_test_ends_though_earlier_tests_froze_the_heap(
    no_unretrieved_task_error: NeverRetrieved,
) -> None:
    gc.freeze()  # as every earlier test of this worker left it
    _a_failed_task_in_a_cycle()
    assert no_unretrieved_task_error.seen == []  # refcounting alone never frees it

    collect_what_the_test_left()

    assert len(no_unretrieved_task_error.seen) == 1
    assert no_unretrieved_task_error.seen[0].startswith("Task exception was never retrieved LookupError")
    no_unretrieved_task_error.seen.clear()  # seen: this test does not fail for it


def test_what_a_test_leaves_alive_is_frozen_so_the_next_collection_skips_it() -> None:
    survivor: list[object] = []
    assert any(tracked is survivor for tracked in gc.get_objects())  # scanned by every collection

    collect_what_the_test_left()

    assert not any(tracked is survivor for tracked in gc.get_objects())  # frozen: scanned by none
