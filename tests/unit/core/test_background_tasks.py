"""Work the main side starts without awaiting: nothing is left unretrieved, unrun or running at quit."""

from __future__ import annotations

import asyncio
import gc
import logging
import warnings

from app.main.core.background_tasks import BackgroundTasks


def test_a_failure_is_logged_with_its_exception(caplog):
    async def fails():
        raise ValueError("broken on purpose")

    async def scenario():
        tasks = BackgroundTasks("test work")
        tasks.spawn(fails(), "fails")
        await asyncio.sleep(0.01)  # the failing task runs and is reported

    with caplog.at_level(logging.ERROR):
        asyncio.run(scenario())
    failed = [r for r in caplog.records if r.getMessage() == "test work failed"]
    assert failed and isinstance(failed[0].exc_info[1], ValueError)


def test_close_cancels_each_task_and_waits_for_its_clean_up():
    cleaned: list[str] = []

    async def waits_forever(name: str):
        try:
            await asyncio.Event().wait()
        finally:
            await asyncio.sleep(0.01)  # clean-up that itself awaits
            cleaned.append(name)

    async def scenario():
        tasks = BackgroundTasks("test work")
        tasks.spawn(waits_forever("a"), "a")
        tasks.spawn(waits_forever("b"), "b")
        await asyncio.sleep(0)  # one turn of the loop: both tasks start
        await tasks.close()
        assert sorted(cleaned) == ["a", "b"]  # done when close returns, not some time later

    asyncio.run(scenario())


def test_work_spawned_while_quitting_never_starts_and_is_not_left_unrun():
    """A session opened as the window closes once left a coroutine nobody awaited (a RuntimeWarning)."""
    started: list[bool] = []

    async def work():
        started.append(True)

    async def scenario():
        tasks = BackgroundTasks("test work")
        await tasks.close()
        tasks.spawn(work(), "late")
        await asyncio.sleep(0.01)  # the task runs (it must not)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asyncio.run(scenario())
        gc.collect()
    assert not started
    assert not [w for w in caught if "never awaited" in str(w.message)], [str(w.message) for w in caught]


def test_work_asked_for_with_no_event_loop_running_is_closed_not_left_unrun():
    """A callback at a window's teardown once spawned the terminal tools' start with no loop running: the
    coroutine was left never awaited (a RuntimeWarning in CI)."""

    async def work():
        raise AssertionError("must not run")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        BackgroundTasks("test work").spawn(work(), "outside")
        gc.collect()
    assert not [w for w in caught if "never awaited" in str(w.message)], [str(w.message) for w in caught]
