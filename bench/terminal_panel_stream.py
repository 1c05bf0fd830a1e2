"""`terminal_panel_stream`: 1 MB of output (`cat` of a file in a real shell) into the visible terminal
panel of the real window, until its last line is painted, vs the same text through the panel's emulator
alone (headless, in PTY-sized pieces). Goal <= 1.5; the longest GUI stall is reported too (goal under
50 ms)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from app.renderer.terminal.live import InteractiveTerminal
from bench.common import Result, median, sized
from bench.panel_common import open_panel
from bench.ui_common import StallMonitor, close_window, qt_loop, temp_dir, until

GOAL = 1.5
STALL_GOAL_MS = 50
LINE = "\x1b[32mINFO\x1b[0m build step {:06d} " + "-" * 50 + "\n"
PIECE = 4096  # what a PTY read returns at most
DATA_BYTES = sized(1024 * 1024, 128 * 1024)


def write_data(folder: Path) -> tuple[Path, int]:
    path = folder / "big.txt"
    with path.open("w") as out:
        count = 0
        while out.tell() < DATA_BYTES:
            out.write(LINE.format(count))
            count += 1
    return path, count


def emulator_alone(data: str, columns: int, rows: int) -> float:
    terminal = InteractiveTerminal(columns, rows)
    text = data.replace("\n", "\r\n")  # what the PTY delivers
    started = time.perf_counter()
    for start in range(0, len(text), PIECE):
        terminal.append(text[start : start + PIECE])
    terminal.feed_all()
    terminal.runs(terminal.line_count() - rows, rows)  # what the panel paints
    return time.perf_counter() - started


def run(rounds: int = 3) -> Result:
    loop = qt_loop()
    panel_times: list[float] = []
    stalls: list[float] = []
    size: list[tuple[int, int]] = []

    async def scenario(cwd: str, path: Path, count: int) -> None:
        window, panel, screen, terminal_id = await open_panel(cwd)
        emulator = panel.terminal_emulator(terminal_id)
        size.append((emulator.columns, emulator.rows))
        last = f"build step {count - 1:06d}"
        try:
            for index in range(rounds):
                marker = f"end-of-round-{index}"
                monitor = StallMonitor()
                monitor.start()
                started = time.perf_counter()
                window.host.terminals.input(terminal_id, f"cat {path}; echo {marker}\r")

                def painted(marker: str = marker) -> bool:
                    if screen.property("paintedVersion") != screen.property("version"):
                        return False
                    return any(line == marker for line in emulator.text()[-4000:].split("\n"))

                await until(painted, 120)
                panel_times.append(time.perf_counter() - started)
                stalls.append(monitor.stop())
                assert last in emulator.text() and emulator.skipped_chars == 0
        finally:
            await close_window(window)

    with temp_dir() as cwd, loop:
        path, count = write_data(Path(cwd))
        loop.run_until_complete(scenario(cwd, path, count))
        data = path.read_text()
    columns, rows = size[0]
    alone = median([emulator_alone(data, columns, rows) for _ in range(rounds)])
    shown = median(panel_times)
    stall_ms = median(stalls) * 1000
    ratio = shown / alone
    return Result(
        "terminal_panel_stream",
        ratio,
        GOAL,
        {"panel_s": round(shown, 3), "emulator_s": round(alone, 3), "longest_stall_ms": round(stall_ms, 1)},
        f"terminal_panel_stream ratio={ratio:.3f} goal={GOAL} "
        f"(panel {shown:.2f} s vs emulator {alone:.2f} s; "
        f"longest GUI stall {stall_ms:.1f} ms, goal < {STALL_GOAL_MS} ms; {os.cpu_count()} cores)",
    )
