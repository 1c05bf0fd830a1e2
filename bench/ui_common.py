"""The real window for UI benchmarks: offscreen Qt, qasync loop, the scripted agent, a stall monitor."""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench.common import scripted_service

_APP: Any = None


def qt_loop() -> Any:
    """One QApplication per process and a fresh qasync loop."""
    global _APP
    import qasync
    from PySide6.QtWidgets import QApplication

    from app.renderer.qt.common.feature_scan import answer_from_bytes

    answer_from_bytes()  # as the app does once PySide is loaded (app.gui): its windows are measured
    _APP = QApplication.instance() or QApplication([])
    _APP.setQuitOnLastWindowClosed(False)  # benchmarks open and destroy several windows in one process
    loop = qasync.QEventLoop(_APP)
    asyncio.set_event_loop(loop)
    return loop


class StallMonitor:
    """A timer on the GUI thread (every 2 ms unless told); the longest gap between ticks is the longest
    stall."""

    def __init__(self, interval_ms: int = 2) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.longest = 0.0
        self._last = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self._last)
        self._last = now

    def start(self) -> None:
        self._last = time.perf_counter()
        self.longest = 0.0
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        return self.longest


def resident_mb(field: str = "VmRSS") -> float | None:
    """The process's resident memory (`VmRSS`, or its peak `VmHWM`) in MB; None where /proc cannot
    tell (not Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def reset_peak() -> None:
    """Linux: start the process's peak resident size (VmHWM) over from now."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        pass


async def outside_task(action: Callable[[], Any]) -> None:
    """Run `action` (a Qt call that may deliver events, as QTest's do) from the loop between two task
    steps: called inside a task, the events it delivers can run another task's step inside this one,
    which qasync refuses ("Cannot enter into task")."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def run() -> None:
        try:
            action()
        finally:
            done.set_result(None)

    loop.call_soon(run)
    await done


async def until(predicate: Callable[[], Any], timeout: float = 120.0, interval: float = 0.005) -> None:
    """Wait for `predicate`, checking every `interval` s; a benchmark never waits forever."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("benchmark condition not met")
        await asyncio.sleep(interval)


async def open_window(cwd: str) -> Any:
    from app.main.host.make import make_host
    from app.renderer.qt.main_window import Window

    service = scripted_service(cwd)
    # a data folder of its own: a window must not reopen the chat an earlier window showed (the state
    # restore would measure another start)
    window = Window(make_host(service, Path(cwd) / ".clawqt-data"))
    window.root.resize(1180, 780)
    window.objects.start()
    await until(lambda: window.objects.session.sessionKey)
    return window


async def close_window(window: Any) -> None:
    """Shut the agent down and destroy the window's QML (a closed but living engine keeps animating
    and would bill the next benchmark in the same process)."""
    await window.objects.shutdown()
    window.root.close()
    window.engine.deleteLater()
    await asyncio.sleep(0.05)  # the loop runs the deferred delete


async def frame(window: Any) -> None:
    """Wait for the next rendered frame of the window."""
    done = asyncio.get_running_loop().create_future()

    def swapped() -> None:
        if not done.done():
            done.set_result(None)

    window.root.frameSwapped.connect(swapped)
    window.root.update()
    try:
        await asyncio.wait_for(done, 10)
    finally:
        window.root.frameSwapped.disconnect(swapped)


async def load_into_window(window: Any, session: str) -> None:
    objects = window.objects
    objects.session.openSession(session)
    await until(lambda: objects.session.sessionKey == session)


def temp_dir() -> tempfile.TemporaryDirectory:
    return tempfile.TemporaryDirectory()
