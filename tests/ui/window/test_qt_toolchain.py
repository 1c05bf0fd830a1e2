"""Regression guard for the chosen PySide6: 6.12.0 on CPython 3.11 drops a reference to None on every
void Qt call and to True/False on every emit, aborting the interpreter after a few thousand. We make
20,000 of each in a child interpreter (an abort there must fail this test, not kill the suite)."""

from __future__ import annotations

import os
import subprocess
import sys

PROGRAM = r"""
from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

class Emitter(QObject):
    ping = Signal(int)

app = QCoreApplication([])
emitter = Emitter()
received = []
emitter.ping.connect(received.append)
timer = QTimer()
for i in range(20_000):
    emitter.setObjectName("x")        # void call
    timer.setInterval(i % 100 + 1)    # void call
    emitter.ping.emit(i)              # emit
    app.processEvents()               # void call
assert len(received) == 20_000, len(received)
print("ok", flush=True)
"""


def test_twenty_thousand_void_calls_and_emits_do_not_abort():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=120, env=env
    )
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr[-2000:]}"
    assert result.stdout.strip() == "ok"


def test_qt_quick_modules_are_available():
    """PySide6-Essentials must carry what the window needs (Qml, Quick, QuickControls2)."""
    from PySide6 import QtQml, QtQuick, QtQuickControls2  # noqa: F401
