"""`ui_frames`: frames the real window draws that show nothing new, counted with the composer's cursor
standing still (its blink is a change worth a frame). Three figures, each against its allowance:

- after a long reply (`paced 20000 6000`) has ended and its last frame is drawn: frames in the next 2 s
  (allowed: 1; an invisible highlight once kept gliding, drawing for seconds after the reply);
- while a reply streams (`paced 2000 5000`): frames / (flushes + the spinner's steps + 3) (allowed: 1;
  a row laid out during its frame asked for one more frame per new line of text);
- while the agent works silently with two spinners turning: frames per second / the spinners' steps
  per second (allowed: 1 + 2 frames; each spinner on its own timer drew twice the frames).

The ratio is the worst figure over its allowance, goal <= 1.0."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bench.common import Result, median, sized
from bench.ui_common import close_window, frame, open_window, qt_loop, temp_dir, until

QUIET_S = float(sized(2, 1))
SPIN_S = float(sized(3, 1))
LONG_REPLY = "paced 20000 6000"  # 6,000 characters at 20,000 a second


async def _settled(window: Any) -> None:
    for _ in range(3):
        await frame(window)


async def _turn(window: Any, prompt: str) -> list[str]:
    ended: list[str] = []
    window.objects.turn.turnEnded.connect(ended.append)
    window.objects.turn.send(prompt)
    return ended


async def _after_a_reply(window: Any) -> float:
    """Frames drawn in QUIET_S after a long reply ended and was drawn."""
    ended = await _turn(window, LONG_REPLY)
    await until(lambda: ended, 120)
    window.objects.model.flush()
    await _settled(window)
    await asyncio.sleep(0.3)  # the frames the end of the turn asks for (the spinner's last, the footer's)
    frames: list[float] = []
    window.root.frameSwapped.connect(lambda: frames.append(time.perf_counter()))
    await asyncio.sleep(QUIET_S)  # the span in which frames are counted
    return float(len(frames))


async def _while_streaming(window: Any) -> float:
    """Frames while a reply streams / (its flushes + the spinner's steps + 3)."""
    objects = window.objects
    frames: list[float] = []
    flushes: list[float] = []
    window.root.frameSwapped.connect(lambda: frames.append(time.perf_counter()))
    objects.model.flushed.connect(lambda: flushes.append(time.perf_counter()))
    ended = await _turn(window, "paced 2000 5000")
    await until(lambda: any(row.kind == "assistant-text" for row in objects.model.rows), 60)
    started, frames[:], flushes[:] = time.perf_counter(), [], []
    await until(lambda: ended, 120)
    took = time.perf_counter() - started
    steps = window.singleton("theme").property("spinnerSteps")
    return len(frames) / (len(flushes) + steps * took + 3)


async def _spinning(window: Any) -> float:
    """Frames per second while two spinners turn / (their steps per second + 2 frames)."""
    objects = window.objects
    ended = await _turn(window, "silent")
    await until(lambda: objects.session.busy, 30)
    await _settled(window)
    await asyncio.sleep(0.3)  # the sent question's own frames
    frames: list[float] = []
    window.root.frameSwapped.connect(lambda: frames.append(time.perf_counter()))
    started = time.perf_counter()
    await asyncio.sleep(SPIN_S)  # the span in which frames are counted
    took = time.perf_counter() - started
    steps = window.singleton("theme").property("spinnerSteps")
    objects.turn.stop()
    await until(lambda: ended or not objects.session.busy, 30)
    return len(frames) / (steps * took + 2)


CASES = {"frames_after_reply": _after_a_reply, "streaming_frame_ratio": _while_streaming}
ALLOWED = {"frames_after_reply": 1.0, "streaming_frame_ratio": 1.0, "spinner_frame_ratio": 1.0}


def run(rounds: int = 3) -> Result:
    from PySide6.QtGui import QGuiApplication

    loop = qt_loop()
    figures: dict[str, list[float]] = {name: [] for name in ALLOWED}

    async def one_round(cwd: str) -> None:
        for name, case in (*CASES.items(), ("spinner_frame_ratio", _spinning)):
            window = await open_window(cwd)  # a window of its own: no earlier turn's timers
            try:
                await _settled(window)
                figures[name].append(await case(window))
            finally:
                await close_window(window)

    hints = QGuiApplication.styleHints()
    flash = hints.cursorFlashTime()
    hints.setCursorFlashTime(0)  # the composer's cursor stands still
    try:
        with temp_dir() as cwd, loop:
            for _ in range(rounds):
                loop.run_until_complete(one_round(cwd))
    finally:
        hints.setCursorFlashTime(flash)
    medians = {name: median(values) for name, values in figures.items()}
    ratio = max(medians[name] / ALLOWED[name] for name in ALLOWED)
    shown = " ".join(f"{name}={value:.2f}" for name, value in medians.items())
    return Result(
        "ui_frames",
        ratio,
        1.0,
        {"rounds": rounds, "allowed": ALLOWED, **{k: round(v, 3) for k, v in medians.items()}},
        extra_line=f"ui_frames ratio={ratio:.3f} {shown} goal=1.0",
    )
