"""`ProposalCards` [proposalCards] alone: what it passes to `HostApi.proposals`, and when it does not."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from app.contract.errors import HostError
from app.renderer.qt.cards.proposals import NO_LONGER, ProposalCards
from app.renderer.qt.common.notices import Notices
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.tasks import TaskRunner
from app.renderer.timeline.reducer import Timeline
from tests.unit.timeline.proposal_helpers import envelope, live_turn


class Recording:
    def __init__(self, answer: Any = True) -> None:
        self.answer = answer
        self.calls: list[tuple[Any, ...]] = []

    def confirm(self, proposal_id: str, choice: int, action_index: int, run: bool = True) -> bool:
        self.calls.append(("confirm", proposal_id, choice, action_index, run))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer

    def cancel(self, proposal_id: str) -> None:
        self.calls.append(("cancel", proposal_id))


def cards(timeline: Timeline, proposals: Recording) -> tuple[ProposalCards, Notices]:
    notices = Notices()
    host = SimpleNamespace(proposals=proposals)
    sessions = SimpleNamespace(subscribe=lambda listener: lambda: None)
    ops = Operations(TaskRunner(), notices)
    view = ProposalCards(host, sessions, SimpleNamespace(timeline=timeline), ops)  # type: ignore[arg-type]
    return view, notices


def test_a_confirm_reaches_the_host_once_with_the_choice_number_action_and_run(qapp):
    timeline = live_turn()(envelope()).timeline
    proposals = Recording()
    view, _ = cards(timeline, proposals)
    assert view.confirm("p1", 2, 0, False)
    assert not view.confirm("p1", 2, 0, False)  # decided here: the envelope may still be on its way
    view.cancel("p1")
    assert proposals.calls == [("confirm", "p1", 2, 0, False)]
    assert view.isDecided("p1") and view.decided == ["p1"]


def test_a_card_that_is_not_awaiting_or_not_shown_is_never_passed_on(qapp):
    timeline = live_turn()(envelope(), envelope(state="timed_out")).timeline
    proposals = Recording()
    view, _ = cards(timeline, proposals)
    assert not view.confirm("p1", 2, 0, True)
    assert not view.confirm("unknown", 1, 0, True)
    view.cancel("p1")
    assert proposals.calls == []


def test_a_refusal_says_so_and_a_failure_lets_the_user_try_again(qapp):
    timeline = live_turn()(envelope()).timeline
    view, notices = cards(timeline, Recording(False))
    assert not view.confirm("p1", 1, 0, True)
    assert notices.property("notice") == NO_LONGER
    failing = Recording(HostError("the terminal is gone"))
    view, notices = cards(timeline, failing)
    assert not view.confirm("p1", 1, 0, True)
    assert "the terminal is gone" in notices.property("notice")
    assert not view.isDecided("p1")
    failing.answer = True
    assert view.confirm("p1", 1, 0, True)


def test_the_keyboard_position_is_remembered_per_card(qapp):
    view, _ = cards(Timeline("k", 1), Recording())
    assert view.position("p1") == [0, 0]
    view.setPosition("p1", 1, 2)
    assert view.position("p1") == [1, 2]
