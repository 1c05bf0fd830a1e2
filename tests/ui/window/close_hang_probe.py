"""Run by test_self_test: opens the window under a threaded render loop whose render thread runs a
Python slot while the window is hidden (the GUI thread holding the interpreter, waiting for it), then
closes it: Window.close must end the process with the stacks printed instead of hanging."""

from __future__ import annotations

import argparse
import os
import sys
import time

from app import gui

CEILING_S = 2.0


def main() -> int:
    started = gui._start_qt(argparse.Namespace(agent=None, cwd=os.getcwd()), "error")
    assert not isinstance(started, int)
    _app, host, _recorder, loop = started
    from PySide6.QtCore import Qt

    def on_render_thread() -> None:
        time.sleep(0.01)

    async def run() -> None:
        window = gui.Window(host)
        await gui._first_frame(window)
        direct = Qt.ConnectionType.DirectConnection
        window.root.sceneGraphInvalidated.connect(on_render_thread, direct)
        gui.WINDOW_CLOSE_CEILING_S = CEILING_S
        await window.close()
        print("closed without a hang", flush=True)

    with loop:
        loop.run_until_complete(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
