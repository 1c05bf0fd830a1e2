"""After a chat is shown (another left), the heap is settled: frozen out of the collector's walks and
the pages the left chat freed handed back to the system (glibc's malloc_trim; how much comes back is
the `memory` benchmark's back_ratio), at once and again once the left chat's row delegates, deleted in
later turns of the event loop, are gone. The real window, the scripted agent as a real subprocess."""

from __future__ import annotations

import sys

import pytest

from app.contract import heap
from tests.conftest import scripted_agent_argv


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim: Linux only")
def test_the_real_malloc_trim_is_found_and_answers():
    trim = heap.malloc_trim()
    assert trim is not None and trim(0) in (0, 1)


def test_showing_another_chat_hands_the_freed_heap_back(ui, monkeypatch):
    from app.renderer.qt.conversation import current_session

    trims: list[int] = []
    monkeypatch.setattr(heap, "malloc_trim", lambda: trims.append)
    monkeypatch.setattr(current_session, "TRIM_AGAIN_MS", 50)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.send_and_settle(window, "hello")
        shown = len(trims)
        objects.session.newChat()  # the first chat is left: its timeline is dropped
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        await ui.until(lambda: len(trims) > shown)
        assert trims[-1] == 0
        at_once = len(trims)
        await ui.until(lambda: len(trims) > at_once)  # and again, once the delegates are gone

    ui.run(scenario())
