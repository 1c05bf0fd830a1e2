"""`ui_startup`: process launch to the first frame of ClawQt's window vs a bare PySide6 Qt Quick window
with one label, both measured the same way (spawn -> the child prints after its first frameSwapped).
Goal <= 1.6.

Measured as a user's start: with the modules' bytecode cached (an installed app has it; a checkout
writes it on its first start) and Qt's QML disk cache warm. So the children may write bytecode even
where the environment says PYTHONDONTWRITEBYTECODE (each start would otherwise compile the whole app
from source: 1.1 s against 0.29 s, ratio 3.8, in one sitting), and one untimed start of each comes
first.

The first frame is the window's start frame (Main.qml + window/StartFrame.qml, drawn before the main side is
imported: app/renderer/qt/main_window.py); `ready` is the frame after the chat was loaded into it, the
window as the user works in it, reported beside the ratio (`ready_ratio`, no goal of its own).

The split (ClawQt's median of each step, from the marks the app prints when CLAWQT_STARTUP_MARKS is
set): `python` from launch to the command line's first step (the interpreter and `app.cli`), `imports`
to the first frame's modules imported (`app.gui`, the prelude: the config, the placement), `qt` to the
QApplication made (and the config read), `window` to the start frame loaded, `frame` to it painted;
then `host` to the main side imported and built (agents, stores, rules...), `objects` to the chat's
objects made (the view's Python: models, views of the host's parts), `chat` to the chat's QML loaded
into the window, `ready` to the chat painted. The resident memory is read at the start frame, with the
main side, with the chat's objects and with its QML."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from bench.common import BARE_WINDOW, REPO, Result, median

GOAL = 1.6
FRAME_DEADLINE_S = 90  # a start that shows nothing this long has hung

BARE = (
    BARE_WINDOW
    + r"""
window.frameSwapped.connect(lambda: (print("frame", flush=True), app.quit()))
app.exec()
"""
)


STEPS = ("cli", "imported", "qt", "window", "frame", "host", "objects", "chat", "ready")
NAMES = {
    "cli": "python",
    "imported": "imports",
    "qt": "qt",
    "window": "window",
    "frame": "frame",
    "host": "host",
    "objects": "objects",
    "chat": "chat",
    "ready": "ready",
}


def _time_to_frame(argv: list[str], env: dict[str, str], marks: dict[str, float] | None = None) -> float:
    """Launch to the first frame; `marks` gets each step's time since launch (the app's marks, and
    `ready`: the chat's first frame, which the app prints after the first)."""
    wall = time.time()
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=REPO, text=True
    )
    assert proc.stdout is not None
    watchdog = threading.Timer(FRAME_DEADLINE_S, proc.kill)  # a child that never paints ends the read
    watchdog.start()
    try:
        for line in proc.stdout:
            if line.startswith("mark ") and marks is not None:
                _, step, at, resident = line.split()
                marks[step] = float(at) - wall
                marks[f"{step}_mb"] = float(resident)
            if line.startswith("frame"):
                elapsed = time.perf_counter() - started
                if marks is None:
                    break
                marks["frame"] = elapsed
            if line.startswith("ready") and marks is not None:
                marks["ready"] = time.perf_counter() - started
                break
        else:
            raise RuntimeError(f"{argv} exited without its frames (or not within {FRAME_DEADLINE_S} s)")
        proc.wait(timeout=60)
    finally:
        watchdog.cancel()
    return elapsed


def run(rounds: int = 5) -> Result:
    env = {
        **{name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"},
        "QT_QPA_PLATFORM": "offscreen",
        "CLAWQT_FIRST_FRAME_EXIT": "1",
        "CLAWQT_DEMO_DELAY_MS": "0",
        "CLAWQT_STARTUP_MARKS": "1",
    }
    bare, ours = [], []
    splits: list[dict[str, float]] = []
    _time_to_frame([sys.executable, "-c", BARE], env)  # caches written: bytecode, QML
    _time_to_frame([sys.executable, "-m", "app"], env)
    for _ in range(rounds):
        bare.append(_time_to_frame([sys.executable, "-c", BARE], env))
        marks: dict[str, float] = {}
        ours.append(_time_to_frame([sys.executable, "-m", "app"], env, marks))
        splits.append(marks)
    ratio = median(ours) / median(bare)
    ready = median([m["ready"] for m in splits])
    ready_ratio = ready / median(bare)
    # resident memory with the start frame made, the main side built, the chat's objects made, its QML
    resident = {
        s: round(median([m[f"{s}_mb"] for m in splits]), 1) for s in ("window", "host", "objects", "chat")
    }
    split = {}
    for before, step in zip(("", *STEPS), STEPS, strict=False):
        spans = [
            m[step] - (m[before] if before else 0.0)
            for m in splits
            if step in m and (not before or before in m)
        ]
        if spans:
            split[NAMES[step] + "_ms"] = round(1000 * median(spans), 1)
    return Result(
        "ui_startup",
        ratio,
        GOAL,
        {
            "rounds": rounds,
            "bare_median_s": round(median(bare), 3),
            "clawqt_median_s": round(median(ours), 3),
            "ready_median_s": round(ready, 3),
            "ready_ratio": round(ready_ratio, 3),
            "start_frame_mb": resident["window"],
            "host_built_mb": resident["host"],
            "chat_objects_mb": resident["objects"],
            "chat_bound_mb": resident["chat"],
            "split": split,
        },
        extra_line=f"ui_startup ratio={ratio:.3f} goal={GOAL} (first frame {median(ours) * 1000:.0f} ms "
        f"vs a bare Qt Quick window {median(bare) * 1000:.0f} ms; the chat drawn at "
        f"{ready * 1000:.0f} ms, ready_ratio {ready_ratio:.2f}; resident {resident['window']:.0f} MB at the "
        f"start frame, {resident['host']:.0f} MB with the main side, {resident['objects']:.0f} MB with "
        f"the chat's objects, {resident['chat']:.0f} MB with its QML; split: "
        + ", ".join(f"{name.removesuffix('_ms')} {ms:.0f}" for name, ms in split.items())
        + " ms)",
    )
