"""Spinners in the real window: every spinner steps on one clock that stops with the turn, steps ride
frames drawn anyway, and the window asks for the basic render loop before Qt makes one."""

from __future__ import annotations

import itertools
import os
import time

from PySide6.QtCore import QObject

from tests.conftest import scripted_agent_argv
from tests.ui_harness import find_all


def test_every_spinner_steps_on_one_clock_and_the_clock_stops_with_the_turn(ui):
    """While the agent works silently two spinners turn (the composer's and the chat's in the sidebar).
    Each once had its own timer, so their steps fell in different frames: twice the frames for marks
    nobody reads that closely (bench/ui_frames.py counts them). They step together now, on one timer,
    and it stops with the turn and while motion is reduced."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "silent")
        await ui.until(lambda: window.objects.session.busy)
        arcs = lambda: find_all(window.root.contentItem(), "spinnerArc")  # noqa: E731
        await ui.until(lambda: len([a for a in arcs() if a.isVisible()]) >= 2)
        clock = window.singleton("spinnerClock")
        spinners = [a.parentItem() for a in arcs()]  # kept: their wrappers must outlive the timers'
        timers = [t for owner in [*spinners, clock] for t in owner.findChildren(QObject, "spinnerTimer")]
        running = [t for t in timers if t.property("running")]
        assert len(running) == 1  # however many spinners turn
        angles: set[tuple[float, ...]] = set()

        def seen_turning() -> bool:
            turning = [a for a in arcs() if a.isVisible()]
            angles.add(tuple(sorted({a.rotation() for a in turning})))
            return len(angles) >= 3

        await ui.until(seen_turning, 30)  # they do turn
        assert all(len(shown) == 1 for shown in angles), angles  # every spinner at the same angle
        await ui.screenshots(window, "31-working-spinners")
        window.objects.app.setReducedMotion(True)  # the arcs stand still: the clock stops
        await ui.until(lambda: not running[0].property("running"))
        window.objects.app.setReducedMotion(False)
        await ui.until(lambda: running[0].property("running"))
        window.objects.turn.stop()  # the turn ends: no spinner turns, the clock stops
        await ui.until(lambda: not window.objects.session.busy, 10)
        await ui.until(lambda: clock.property("turning") == 0)
        assert not running[0].property("running")

    ui.run(scenario())


def test_while_a_reply_streams_the_spinner_steps_in_frames_drawn_anyway(ui):
    """A streaming reply changes the conversation a few dozen times a second and the composer's spinner
    turns meanwhile: on its own clock each of its steps was one more frame on top of the stream's. A
    step now rides the conversation's change when one comes near its time; the clock steps on its own
    only when no change came since the step was due (checked step by step)."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        clock = window.singleton("spinnerClock")
        due_s = (clock.property("interval") - clock.property("rideEarly")) / 1000
        flushes: list[float] = []
        steps: list[float] = []
        objects.model.flushed.connect(lambda: flushes.append(time.perf_counter()))
        clock.stepChanged.connect(lambda: steps.append(time.perf_counter()))
        await ui.type_and_send(window, "paced 600 1500")
        await ui.until(lambda: objects.session.busy)
        await ui.until(lambda: not objects.session.busy, 30)
        near_s, slack_s = 0.008, 0.004  # a ride happens inside the flush; clocks tick in whole ms
        rode = [s for s in steps if any(abs(s - f) <= near_s for f in flushes)]
        assert len(rode) >= 3, (len(rode), len(steps), len(flushes))
        for before, step in itertools.pairwise(steps):
            if step in rode:
                continue
            ridable = [f for f in flushes if before + due_s + slack_s < f < step - slack_s]
            assert not ridable, f"a step at {step - before:.3f} s on its own after changes at {ridable}"

    ui.run(scenario())


def test_the_window_asks_for_the_basic_render_loop_before_qt_makes_one(ui, monkeypatch):
    """The render loop is chosen when the first Qt Quick window is made: the window asks for the basic
    one (tests/unit/window/test_render_loop.py says why) before its engine loads anything."""
    monkeypatch.delenv("QSG_RENDER_LOOP", raising=False)

    async def scenario():
        await ui.open(scripted_agent_argv(), start=False)
        assert os.environ.get("QSG_RENDER_LOOP") == "basic"

    ui.run(scenario())
