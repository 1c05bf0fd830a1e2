"""Shared helpers: interleaved rounds, medians, the agents, and a bare SDK client that only counts."""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
QUICK = os.environ.get("CLAWQT_BENCH_QUICK") == "1"  # `--quick`: every benchmark runs, on small inputs


def app_folders(home: Path) -> dict[str, str]:
    """The environment that gives a ClawQt process folders of its own under `home` (data, logs, config):
    the user's are neither read nor written, and no run sees an earlier run's."""
    return {
        "CLAWQT_DATA_DIR": str(home / "data"),
        "CLAWQT_LOG_DIR": str(home / "logs"),
        "CLAWQT_CONFIG": str(home / "config.json"),
    }


def sized(full: int, quick: int) -> int:
    """A benchmark's input size: `full` for figures, `quick` when only checking that it runs (the
    suite's smoke test: the full sizes took five minutes of a 2-core machine)."""
    return quick if QUICK else full


# The bare contender of the window benchmarks: a PySide6 Qt Quick window with one label, as small as a
# Qt Quick app gets (`window` and `app` are what a benchmark's code after it uses).
BARE_WINDOW = r"""
import sys
from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlApplicationEngine
from PySide6 import QtQuick
app = QGuiApplication(sys.argv)
engine = QQmlApplicationEngine()
engine.loadData(b'import QtQuick\nimport QtQuick.Controls\n'
                b'ApplicationWindow { width: 1180; height: 780; visible: true; Label { text: "hello" } }')
window = engine.rootObjects()[0]
"""
SCRIPTED_AGENT = (sys.executable, str(REPO / "tests" / "agents" / "scripted_agent.py"))


@dataclass
class Result:
    name: str
    ratio: float
    goal: float
    details: dict[str, Any] = field(default_factory=dict)
    extra_line: str = ""

    @property
    def met(self) -> bool:
        return self.ratio <= self.goal

    def line(self) -> str:
        return self.extra_line or f"{self.name} ratio={self.ratio:.3f} goal={self.goal}"


def scripted_service(cwd: str) -> Any:
    """ClawQt's chat service on the scripted agent, its stderr logged inside the benchmark's folder."""
    from app.main.agents.command import AgentCommand
    from app.main.sessions.service import ChatService

    return ChatService(
        AgentCommand(SCRIPTED_AGENT, "flag", "bench"), cwd=cwd, log_path=Path(cwd) / "stderr.log"
    )


def cpu_s() -> float:
    """The CPU seconds this process has used (user and system)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def median(values: list[float]) -> float:
    return statistics.median(values)


def interleave(rounds: int, contenders: dict[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Run each contender once per round, alternating, so machine noise hits all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, run in contenders.items():
            times[name].append(run())
    return times


def timed_sync(fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def sdk_vs_clawqt(
    name: str,
    goal: float,
    rounds: int,
    sdk: Callable[[str], Awaitable[float]],
    clawqt: Callable[[str], Awaitable[tuple[float, int]]],
    details: dict[str, Any],
) -> Result:
    """Interleave a bare-SDK run and a ClawQt run (each on its own asyncio loop) `rounds` times in one
    temporary cwd; the ratio is ClawQt's median over the SDK's."""
    import tempfile

    with tempfile.TemporaryDirectory() as cwd:
        rows: list[int] = []

        def ours() -> float:
            elapsed, count = asyncio.run(clawqt(cwd))
            rows.append(count)
            return elapsed

        times = interleave(rounds, {"sdk": lambda: asyncio.run(sdk(cwd)), "clawqt": ours})
    sdk_median, ours_median = median(times["sdk"]), median(times["clawqt"])
    return Result(
        name,
        ours_median / sdk_median,
        goal,
        {
            **details,
            "rounds": rounds,
            "sdk_median_s": round(sdk_median, 4),
            "clawqt_median_s": round(ours_median, 4),
            "rows": rows[-1] if rows else None,
        },
    )


class TerminalEndings:
    """ClientTerminals' output callback that counts the terminals that ended (an exit status came) and
    sets `all_ended` once `expected` have: the event a test or a benchmark of many terminals waits on."""

    def __init__(self, expected: int) -> None:
        self.expected = expected
        self.ended: list[str] = []
        self.all_ended = asyncio.Event()

    def __call__(self, _key: str, terminal_id: str, _data: bytes, status: object) -> None:
        if status is not None:
            self.ended.append(terminal_id)
            if len(self.ended) == self.expected:
                self.all_ended.set()
