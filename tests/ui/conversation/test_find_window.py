"""Find in the chat (Ctrl+F) in the real window, on a 2,000-turn chat loaded from the scripted agent: the
match count, going up and down through the matches, the marks in the text and the row brought into
view, a collapsed card opened for a match inside it, and Esc giving everything back."""

from __future__ import annotations

from PySide6.QtCore import Q_ARG, Q_RETURN_ARG, QMetaObject, Qt
from PySide6.QtGui import QColor
from PySide6.QtQuick import QQuickItem

from app.renderer.qt.conversation.search_marks import text_edits
from tests.conftest import scripted_agent_argv
from tests.ui_harness import drawn_marks, on_screen

TURNS = 2_000


def _field(ui, window) -> QQuickItem:
    return ui.item(window, "findField")


async def _search(ui, window, query: str) -> None:
    field = _field(ui, window)
    field.setProperty("text", query)
    window.objects.search.setQuery(query)  # what the field's textEdited does
    await ui.until(lambda: window.objects.search.complete, 20)


def _shown_row(window, view_row: int) -> QQuickItem | None:
    """The delegate the conversation made for a view row (None when it made none)."""
    listing = window.root.findChild(QQuickItem, "timeline")
    return QMetaObject.invokeMethod(listing, "itemAtIndex", Q_RETURN_ARG("QQuickItem*"), Q_ARG(int, view_row))


def _current_colour(window) -> QColor:
    return QColor(window.singleton("theme").property("searchCurrent"))


def test_find_counts_every_match_goes_through_them_newest_first_and_marks_the_current_one(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        search = objects.search
        objects.session.openSession(f"big-{TURNS}")
        await ui.until(lambda: objects.session.sessionKey == f"big-{TURNS}", 60)
        await ui.until(lambda: len(objects.model.rows) > 5 * TURNS, 60)
        hops: list[tuple[int, str, int]] = []
        search.goTo.connect(lambda row, scope, index: hops.append((row, scope, index)))

        await ui.key(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        bar = ui.item(window, "findBar")
        await ui.until(lambda: bar.isVisible())
        assert _field(ui, window).hasActiveFocus()

        # a question near the bottom: one match, its row on screen, the match marked as current
        await _search(ui, window, "question 1990?")
        assert search.count == 1 and search.current == 1
        assert ui.item(window, "findSummary").property("text") == "1 of 1"
        row, scope, index = hops[-1]
        assert objects.model.row_at(row).kind == "user" and scope == "" and index == 0
        await ui.until(  # the view scrolls to the mark in a frame after the search
            lambda: _shown_row(window, row) is not None and on_screen(window, _shown_row(window, row))
        )
        shown = _shown_row(window, row)
        marked = [m for edit in text_edits(shown) for m in drawn_marks(edit)]
        assert [colour for *_, colour in marked] == [_current_colour(window)]

        # the oldest question: the whole chat is searched back to it, and the view goes there
        await _search(ui, window, "question 3?")
        assert search.count == 1
        row = hops[-1][0]
        await ui.until(
            lambda: _shown_row(window, row) is not None and on_screen(window, _shown_row(window, row))
        )
        assert "question 3?" in ui.role(window, objects.model.row_at(row), "text")

        # a tool's output in every turn: 2,000 matches; the newest card was collapsed and is opened
        await _search(ui, window, "3 HITS")  # case is ignored
        assert search.count == TURNS and ui.item(window, "findSummary").property("text") == f"1 of {TURNS:,}"
        row, scope, index = hops[-1]
        newest_tool = objects.model.row_at(row)
        assert newest_tool.kind == "tool" and scope == newest_tool.item_ids[0]
        assert ui.tool_payload(window, scope)["expanded"]
        await ui.frames(window, 2)
        shown = _shown_row(window, row)
        assert any(
            colour == _current_colour(window)
            for edit in text_edits(shown)
            for *_, colour in drawn_marks(edit)
        )
        await ui.screenshots(window, "63-find-in-chat")

        # Enter: the next older match; Shift+Enter back; Shift+Enter past the newest wraps to the oldest
        await ui.key(window, Qt.Key.Key_Return)
        assert search.current == 2 and objects.model.view_row_of_key(newest_tool.key) < hops[-1][0]
        await ui.key(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        assert search.current == 1 and hops[-1][0] == row
        await ui.key(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        assert search.current == TURNS
        await ui.key(window, Qt.Key.Key_F3)
        assert search.current == 1  # F3 goes on up, wrapping past the oldest

        # a collapsed thought opens for its match
        await _search(ui, window, "thinking about 1999")
        thought_row = objects.model.row_at(hops[-1][0])
        assert thought_row.kind == "thought" and ui.role(window, thought_row, "expanded")

        await _search(ui, window, "no such words anywhere")
        assert search.count == 0 and ui.item(window, "findSummary").property("text") == "No results"

        # Esc: the bar closes, every mark goes, the composer has the keyboard again
        def marked() -> bool:
            return any(
                drawn_marks(edit) for edit in text_edits(window.root.findChild(QQuickItem, "timeline"))
            )

        await _search(ui, window, "lorem")
        await ui.until(marked)  # the documents are marked in slices between frames
        await ui.frames(window, 2)
        await ui.screenshots(window, "63b-find-many-matches")
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not bar.isVisible())
        await ui.until(lambda: not marked())  # taken off in slices too
        assert not objects.search.marks._highlighters
        assert ui.item(window, "composerInput").hasActiveFocus()

    ui.run(scenario(), timeout=180)
