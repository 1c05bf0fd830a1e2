"""The window makes the first reply's parsers ahead once it has started, on a worker thread (the GUI
thread stays free while the imports run)."""

from __future__ import annotations

import threading


def test_the_window_warms_up_on_a_worker_thread_once_it_starts(ui, monkeypatch):
    from app.renderer.qt import window as window_module
    from tests.conftest import scripted_agent_argv

    threads: list[threading.Thread] = []
    monkeypatch.setattr(window_module, "warm_up", lambda: threads.append(threading.current_thread()))

    async def scenario():
        await ui.open(scripted_agent_argv())
        await ui.until(lambda: threads)
        assert threads[0] is not threading.main_thread()

    ui.run(scenario())
