"""`terminal_stream`: 1 MB of coloured output streamed as 4 KB `_meta.terminal_output_delta`s into a
visible terminal card of the real window vs the same bytes through the emulator alone, headless.
Goal <= 1.5; the longest GUI stall is printed too (goal under 50 ms)."""

from __future__ import annotations

import time

from app.renderer.terminal.emulator import TerminalEmulator
from app.renderer.timeline.items import TerminalState
from bench.common import Result, median, sized
from bench.ui_common import StallMonitor, close_window, open_window, qt_loop, temp_dir, until

GOAL = 1.5
STALL_GOAL_MS = 50
LINE = "\x1b[32mINFO\x1b[0m \x1b[1mworker\x1b[0m processed item {:06d} " + "." * 40 + "\n"
DATA = "".join(LINE.format(i) for i in range(sized(1024 * 1024, 128 * 1024) // 80))


def emulator_alone() -> float:
    state = TerminalState("T")
    emulator = TerminalEmulator()
    started = time.perf_counter()
    for start in range(0, len(DATA), 4096):
        state.append(DATA[start : start + 4096])
    emulator.feed_all(state)
    emulator.runs(emulator.line_count() - 24, 24)  # what the card paints
    return time.perf_counter() - started


def run(rounds: int = 3) -> Result:
    loop = qt_loop()
    card_times: list[float] = []
    stalls: list[float] = []

    async def scenario(cwd: str) -> None:
        window = await open_window(cwd)
        objects = window.objects
        model = objects.model
        try:
            for _ in range(rounds):
                objects.session.newChat()
                previous = objects.session.sessionKey
                await until(lambda: objects.session.sessionKey != previous)  # noqa: B023
                # visible: keep the card open after it completes (as if the user had opened it)
                model.views.collapse.toggle("tool:t-big", False)

                found: list = []

                def screen(found: list = found) -> str:
                    """The text the card's painted screen shows, once painted (the item is looked up
                    once: walking the QML tree on every poll would itself stall the GUI)."""
                    if not found:
                        stack = [window.root.contentItem()]
                        while stack:
                            item = stack.pop()
                            if item.objectName() == "terminalScreen":
                                found.append(item)
                            stack.extend(item.childItems())
                        return ""
                    item = found[0]
                    painted = item.property("paintedVersion") == item.property("version")
                    return item.property("text") if painted else ""

                monitor = StallMonitor()
                monitor.start()
                started = time.perf_counter()
                objects.turn.send("term-big")
                await until(lambda: "processed item 013106" in screen(), 120)
                card_times.append(time.perf_counter() - started)
                stalls.append(monitor.stop())
        finally:
            await close_window(window)

    with temp_dir() as cwd, loop:
        loop.run_until_complete(scenario(cwd))
    alone = median([emulator_alone() for _ in range(rounds)])
    card = median(card_times)
    stall_ms = median(stalls) * 1000
    result = Result(
        "terminal_stream",
        card / alone,
        GOAL,
        {
            "bytes": len(DATA),
            "rounds": rounds,
            "card_median_s": round(card, 3),
            "emulator_alone_s": round(alone, 3),
            "longest_stall_ms": round(stall_ms, 1),
            "stall_goal_ms": STALL_GOAL_MS,
        },
    )
    result.extra_line = (
        f"terminal_stream ratio={card / alone:.3f} goal={GOAL} longest_stall_ms={stall_ms:.1f}"
    )
    return result
