"""The window's one door to the host (`Operations`) and what stands behind it: the notice bar and the
task runner. A refused host call becomes one worded notice in the chat it is about; a defect is logged
and reported once; no task's error goes unretrieved."""

from __future__ import annotations

import gc
import warnings

from app.contract.errors import HostError, SaveFailed
from app.renderer.qt.common.notices import Notices
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.tasks import TaskRunner


def test_a_notice_with_retry_gives_the_text_back_once(qapp):
    notices = Notices()
    asked: list[str] = []
    notices.retryRequested.connect(asked.append)
    notices.show("Your message was not sent: offline", retry="hello")
    assert notices.notice.startswith("Your message") and notices.canRetry
    notices.retry()
    notices.retry()
    assert asked == ["hello"] and notices.notice == "" and not notices.canRetry


def test_a_failing_task_is_reported_once_and_its_error_retrieved(ui):
    tasks = TaskRunner()
    reported: list[str] = []
    tasks.failed.connect(reported.append)

    async def boom() -> None:
        raise ValueError("the disk is gone")

    async def scenario() -> None:
        task = tasks.spawn(boom())
        assert task is not None
        await ui.until(lambda: reported)
        assert task.done() and len(tasks) == 0

    ui.run(scenario())
    assert reported == ["Something went wrong: the disk is gone"]


def test_work_asked_for_after_the_window_shut_down_is_dropped_not_left_unrun(ui):
    """A retry timer of the attachments once fired after its window had closed, in a later window's
    test: spawning then found no event loop and the exception reached Qt's event loop."""
    tasks = TaskRunner()
    ran: list[bool] = []

    async def work() -> None:
        ran.append(True)

    tasks.close()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert tasks.spawn(work()) is None
        Operations(tasks, Notices()).run(work(), "Not done")  # the host call too, not only its wrapper
        gc.collect()
    assert not ran and not [w for w in caught if "never awaited" in str(w.message)]


def _ops() -> tuple[Operations, Notices, list[str]]:
    tasks, notices = TaskRunner(), Notices()
    reported: list[str] = []
    tasks.failed.connect(reported.append)
    return Operations(tasks, notices), notices, reported


def test_a_refused_call_is_one_worded_notice_in_its_chat_and_done_is_not_called(ui):
    ops, notices, reported = _ops()
    done: list[int] = []
    after: list[bool] = []

    async def refused() -> int:
        raise SaveFailed("the folder is read-only", details="EROFS")

    async def answered() -> int:
        return 7

    async def scenario() -> None:
        notices.showing("chat-b")
        ops.run(refused(), "The chat was not exported", done=done.append, after=lambda: after.append(True))
        await ui.until(lambda: notices.notice)
        assert notices.notice == "The chat was not exported: the folder is read-only"
        assert notices.details == "EROFS" and done == [] and after == [True]
        notices.clear()
        ops.run(refused(), "Could not close the session", session="chat-a")  # another chat's: it waits
        ops.run(answered(), "unused", done=done.append, after=lambda: after.append(True))
        await ui.until(lambda: done)
        assert done == [7] and after == [True, True] and notices.notice == ""
        notices.showing("chat-a")
        assert notices.notice == "Could not close the session: the folder is read-only"

    ui.run(scenario())
    assert reported == []


def test_a_defect_in_a_call_is_reported_by_the_runner_not_worded_as_a_refusal(ui):
    ops, notices, reported = _ops()

    async def broken() -> None:
        raise KeyError("turn")

    async def scenario() -> None:
        ops.run(broken(), "Could not list the sessions")
        await ui.until(lambda: reported)

    ui.run(scenario())
    assert reported == ["Something went wrong: 'turn'"] and not notices.notice.startswith("Could not")


def test_a_call_answered_now_gives_its_result_or_none_after_the_refusal(qapp):
    ops, notices, _ = _ops()
    undone: list[str] = []

    def refuse() -> bool:
        raise HostError("the terminal is gone")

    assert ops.call("Could not run the proposal", lambda: True) is True and notices.notice == ""
    assert ops.call("Could not run the proposal", refuse, refused=lambda exc: undone.append(str(exc))) is None
    assert undone == ["the terminal is gone"]
    assert notices.notice == "Could not run the proposal: the terminal is gone"
