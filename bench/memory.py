"""`memory`: what the window costs in resident memory, each figure from a fresh process.
- empty_ratio: RSS of ClawQt's window on an empty chat (settled) / RSS of a bare PySide6 Qt Quick window
  with a label (settled); goal <= 1.3, the benchmark's ratio (both RSS figures printed side by side).
- kb_per_turn: RSS added by showing a `big-N` history (about 1.2 KB of text per turn) divided by N,
  for N = 2,000 and 10,000 (the larger is kept: the cost per turn must not grow with N); goal <= 8.
  Counted from a window that has shown a one-turn chat: what the first reply costs once per window
  (the Markdown parser and highlighter load on the first render) is reported apart (first_render_mb).
  Each figure is settled: the rows made and the search index's writes of the history done (they go on
  in the background for a second or two after a 10,000-turn history is shown); the figure read
  before those writes ended is printed beside it (kb_per_turn_while_indexing), with how long they took.
- bare_widgets_mb: the bare window made with a QApplication (Qt Widgets loaded) as ClawQt's must be (the
  desktop's file dialog and the tray icon are widgets), printed beside the bare window: a figure.
- app_idle_mb: RSS of the app as a user starts it (`python -m app`, the demo agent over ACP, the whole
  main side: terminal access, rules, MCP servers), settled once its agent is ready; printed beside the
  bare window (`app_idle_ratio`), a figure, not a goal of its own.
- toad_idle_mb: Toad's resident memory on its start screen (bench/toad.py; installed into .cache/toad
  by `python -m bench.toad install`, else said not to be), printed beside the others: a figure.
- back_ratio: RSS after leaving the 2,000-turn chat for a new empty one / RSS before it was opened
  (goal <= 1.15: nothing of it kept).
- switch_slope_mb: switching back and forth between two 2,000-turn chats, the least-squares slope of
  RSS over the switches in MB per switch (0 when nothing leaks).
Run as `python -m bench.memory child MODE ...` it is one of those processes and prints JSON."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import time

from bench import toad
from bench.common import BARE_WINDOW, QUICK, REPO, Result, app_folders

GOAL = 1.3
KB_PER_TURN_GOAL = 8.0
BACK_GOAL = 1.15
SETTLE_S = 0.2 if QUICK else 1.0  # `--quick` only checks that it runs

BARE = (
    BARE_WINDOW
    + r"""
def report():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            print('{"rss_mb": %.1f}' % (int(line.split()[1]) / 1024), flush=True)
    app.quit()

window.frameSwapped.connect(lambda: QTimer.singleShot(int(SETTLE * 1000), report))
app.exec()
"""
)


def _child_json(argv: list[str]) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=REPO, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{argv[2:]} failed: {done.stderr[-2000:]}")
    return json.loads(lines[-1])


async def _settled_rss(window, index_written: bool = True) -> float:
    """RSS once the rows are made and drawn (and, unless asked not to, the search index's writes done)
    and SETTLE_S passed."""
    from bench.ui_common import frame, resident_mb

    window.objects.model.flush()
    await frame(window)
    if index_written:
        await window.host.search.written()
    await asyncio.sleep(SETTLE_S)
    gc.collect()
    return resident_mb() or 0.0


async def _open_big(window, key: str) -> None:
    from bench.ui_common import frame, load_into_window, until

    await load_into_window(window, key)
    objects = window.objects
    await until(lambda: objects.session.timeline is not None and objects.model.rowCount() > 0)
    await frame(window)


async def _new_chat(window) -> None:
    from bench.ui_common import until

    session = window.objects.session
    previous = session.sessionKey
    session.newChat()
    await until(lambda: session.sessionKey != previous)


async def _child(mode: str, args: list[str]) -> dict:
    from bench.ui_common import close_window, open_window, temp_dir

    with temp_dir() as cwd:
        window = await open_window(cwd)
        try:
            empty = await _settled_rss(window)
            if mode == "empty":
                return {"rss_mb": empty}
            turns = int(args[0])
            # what the first reply shown costs once per window (the Markdown parser and highlighter load
            # on the first render) is not a cost per turn: a one-turn chat is shown first
            await _open_big(window, "big-1-warm")
            await _new_chat(window)
            warm = await _settled_rss(window)
            await _open_big(window, f"big-{turns}")
            indexing = await _settled_rss(window, index_written=False)
            started = time.perf_counter()
            await window.host.search.written()
            index_s = time.perf_counter() - started
            full = await _settled_rss(window, index_written=False)  # written: just waited for
            out = {
                "turns": turns,
                "empty_mb": empty,
                "warm_mb": warm,
                "full_mb": full,
                "indexing_mb": indexing,
                "index_written_s": index_s,
            }
            if mode == "switch":
                samples = []
                for n in range(int(args[1])):
                    await _open_big(window, f"big-{turns}-{'ab'[n % 2]}")
                    await asyncio.sleep(0.2)
                    gc.collect()
                    samples.append(_rss_now())
                out["samples_mb"] = samples
                await _new_chat(window)
                out["back_mb"] = await _settled_rss(window)
            return out
        finally:
            await close_window(window)


def _app_idle_mb() -> float:
    """The real app's resident memory once its agent is ready and it settled (read from /proc)."""
    import signal
    import tempfile
    import time
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        env = {
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            **app_folders(root),
        }
        agent = f"{sys.executable} -m app demo-agent"
        argv = [sys.executable, "-m", "app", "--agent", agent, "--cwd", folder]
        app = subprocess.Popen(argv, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            log, deadline = root / "logs" / "clawqt.log", time.monotonic() + 120
            while not (log.exists() and "agent state ready" in log.read_text()):
                if time.monotonic() > deadline or app.poll() is not None:
                    raise RuntimeError("the app's agent was not ready in time")
                time.sleep(0.1)  # the poll's interval
            time.sleep(SETTLE_S * 3)
            status = Path(f"/proc/{app.pid}/status").read_text()
            kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
        finally:
            app.send_signal(signal.SIGTERM)
            try:
                app.wait(timeout=30)
            except subprocess.TimeoutExpired:
                app.kill()
        return kb / 1024


def _rss_now() -> float:
    from bench.ui_common import resident_mb

    return resident_mb() or 0.0


def _slope(values: list[float]) -> float:
    """Least-squares slope of `values` over their index (MB per sample)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean_x, mean_y = (n - 1) / 2, sum(values) / n
    cov = sum((x - mean_x) * (y - mean_y) for x, y in enumerate(values))
    return cov / sum((x - mean_x) ** 2 for x in range(n))


def run(rounds: int = 5) -> Result:
    """`rounds` sets the switches (10 a round: 50 by default)."""
    python = sys.executable
    bare = _child_json([python, "-c", BARE.replace("SETTLE", str(SETTLE_S))])["rss_mb"]
    widgets = BARE.replace("SETTLE", str(SETTLE_S)).replace(
        "from PySide6.QtGui import QGuiApplication", "from PySide6.QtWidgets import QApplication"
    )
    bare_widgets = _child_json([python, "-c", widgets.replace("QGuiApplication(", "QApplication(")])["rss_mb"]
    empty = _child_json([python, "-m", "bench.memory", "child", "empty"])["rss_mb"]
    app_idle = _app_idle_mb()
    toad_mb, toad_said = toad.measured()
    toad_line = toad_said if toad_mb is None else f"{toad_said}: {toad_mb:.0f} MB on its start screen"
    sizes = (100,) if QUICK else (2_000, 10_000)
    big = {n: _child_json([python, "-m", "bench.memory", "child", "big", str(n)]) for n in sizes}
    switched = str(sizes[0])
    switches = _child_json([python, "-m", "bench.memory", "child", "switch", switched, str(10 * rounds)])
    per_turn = {n: (r["full_mb"] - r["warm_mb"]) * 1024 / n for n, r in big.items()}
    while_indexing = {n: (r["indexing_mb"] - r["warm_mb"]) * 1024 / n for n, r in big.items()}
    first_render_mb = {n: r["warm_mb"] - r["empty_mb"] for n, r in big.items()}
    kb_per_turn = max(per_turn.values())
    slope = _slope(switches["samples_mb"])
    back = switches["back_mb"] / switches["empty_mb"]
    ratio = empty / bare
    result = Result(
        "memory",
        ratio,
        GOAL,
        {
            "bare_mb": round(bare, 1),
            "bare_widgets_mb": round(bare_widgets, 1),
            "empty_mb": round(empty, 1),
            "empty_ratio": round(ratio, 3),
            "app_idle_mb": round(app_idle, 1),
            "app_idle_ratio": round(app_idle / bare, 3),
            "toad_idle_mb": None if toad_mb is None else round(toad_mb, 1),
            "toad": toad_said,
            "kb_per_turn": round(kb_per_turn, 2),
            "kb_per_turn_by_n": {str(n): round(v, 2) for n, v in per_turn.items()},
            "kb_per_turn_while_indexing": {str(n): round(v, 2) for n, v in while_indexing.items()},
            "index_written_s": {str(n): round(r["index_written_s"], 2) for n, r in big.items()},
            "first_render_mb": {str(n): round(v, 1) for n, v in first_render_mb.items()},
            "kb_per_turn_goal": KB_PER_TURN_GOAL,
            "back_ratio": round(back, 3),
            "back_goal": BACK_GOAL,
            "switches": 10 * rounds,
            "switch_slope_mb": round(slope, 3),
            "switch_samples_mb": [round(v, 1) for v in switches["samples_mb"]],
        },
    )
    result.extra_line = (
        f"memory empty_ratio={ratio:.3f} (idle {empty:.0f} MB, bare Qt Quick {bare:.0f} MB, with a "
        f"QApplication {bare_widgets:.0f} MB; "
        f"the app with the demo agent {app_idle:.0f} MB, {app_idle / bare:.2f}x; "
        + f"{toad_line}) "
        + f"kb_per_turn={kb_per_turn:.1f} (while the index was written "
        f"{max(while_indexing.values()):.1f}) back_ratio={back:.3f} switch_slope_mb={slope:.3f} goal={GOAL}"
    )
    return result


def _main(argv: list[str]) -> None:
    from bench.ui_common import qt_loop

    loop = qt_loop()
    with loop:
        print(json.dumps(loop.run_until_complete(_child(argv[0], argv[1:]))), flush=True)


if __name__ == "__main__" and sys.argv[1:2] == ["child"]:
    _main(sys.argv[2:])
