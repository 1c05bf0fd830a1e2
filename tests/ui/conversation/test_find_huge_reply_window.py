"""Find (Ctrl+F) on one huge reply in the real window: the scripted agent sends 8 MB of words made of
"a" in one reply, and the user looks for "a" (6.7 million matches in one item of one row). Memory stays
bounded, the count says "10,000+", a hit past the part of the reply laid out brings its "more" block into
view, the marks in a long shown part are bounded too, and Esc takes every mark off. The GUI's longest
stall meanwhile (the count once held it 8 s) is bench/ui_search.py's figure."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtQuick import QQuickItem

from app.renderer.qt.conversation.search_marks import MARKS_PER_DOCUMENT, text_edits
from app.renderer.timeline.search import MAX_HITS
from bench.ui_common import reset_peak, resident_mb
from tests.agents.find_prompts import find_text
from tests.conftest import scripted_agent_argv
from tests.ui_harness import drawn_marks, find_all, on_screen, plain_text

PEAK_MB = 150  # a hit object for every match peaked at +784 MB
MEGABYTES = 8


async def _receive(ui, window, prompt: str) -> None:
    objects = window.objects
    ended: list[str] = []
    objects.turn.turnEnded.connect(ended.append)
    objects.turn.send(prompt)
    await ui.until(lambda: ended, 60)
    objects.model.flush()
    await ui.until(lambda: not objects.model.views.presenter.rows_behind, 60)
    await asyncio.sleep(0.3)  # a few frames: the reply's first part is laid out and drawn


def _marks(window) -> list[list[tuple[int, int, QColor]]]:
    """The marks of each text edit of the conversation."""
    return [drawn_marks(edit) for edit in text_edits(window.root.findChild(QQuickItem, "timeline"))]


def _shown_chars(window) -> int:
    return sum(len(plain_text(edit)) for edit in find_all(window.root.contentItem(), "proseText"))


async def _close(ui, window) -> None:
    """Esc, until every mark is off."""
    await ui.key(window, Qt.Key.Key_Escape)
    await ui.until(lambda: not ui.item(window, "findBar").isVisible())
    await ui.until(lambda: not any(_marks(window)), 30)


def test_find_one_letter_in_an_8_mb_reply_keeps_memory_and_marks_bounded(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        search = objects.search
        await _receive(ui, window, f"hostile-find {MEGABYTES}")
        total = find_text(MEGABYTES).count("a")
        hops: list[tuple[int, str, int]] = []
        search.goTo.connect(lambda row, scope, index: hops.append((row, scope, index)))

        # Ctrl+F, "a", and at once Shift+Enter (to the oldest hit: gone to once the count is done)
        reset_peak()
        base = resident_mb() or 0.0
        await ui.key(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        await ui.until(lambda: ui.item(window, "findField").hasActiveFocus())
        await ui.keys(window, "a")
        await ui.key(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        await ui.until(lambda: search.complete and search.current == MAX_HITS, 60)
        peak = (resident_mb("VmHWM") or 0.0) - base
        assert peak < PEAK_MB, f"finding took {peak:.0f} MB"
        assert ui.item(window, "findSummary").property("text") == f"{MAX_HITS:,} of {MAX_HITS:,}+"

        # the first hit was the reply's last "a", numbered from its top, far past the part laid out:
        # the view shows the reply's "more" block (where Show more reaches the rest), nothing marked current
        row, scope, index = hops[0]
        assert objects.model.row_at(row).kind == "assistant-text" and scope == "" and index == total - 1
        assert hops[-1][2] == total - MAX_HITS
        await ui.until(lambda: on_screen(window, ui.item(window, "moreLabel")))
        current = QColor(window.singleton("theme").property("searchCurrent"))
        await ui.until(lambda: any(_marks(window)))  # the matches drawn are marked, none as current
        assert not [colour for marks in _marks(window) for *_, colour in marks if colour == current]

        await _close(ui, window)
        assert not search.marks._highlighters

        # a long part shown (Show more, 20 times): marking it and taking the marks off stay bounded
        for _ in range(20):
            shown = _shown_chars(window)
            ui.item(window, "showMore").clicked.emit()
            await ui.until(lambda: _shown_chars(window) > shown)  # noqa: B023
        assert _shown_chars(window) > 300_000
        await ui.key(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)  # "a" again
        await ui.until(lambda: search.complete and search.count == MAX_HITS, 30)
        await ui.keys(window, "aa")  # a new query: every document marked again
        await ui.until(lambda: search.query == "aa" and search.complete, 30)
        await ui.until(lambda: sum(map(bool, _marks(window))) > 10, 30)
        assert max(map(len, _marks(window))) <= MARKS_PER_DOCUMENT + 1  # the current one beyond
        await _close(ui, window)

    ui.run(scenario(), timeout=180)
