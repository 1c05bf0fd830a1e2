"""Code blocks and long replies in the real window: a block names its language and is highlighted again
when the theme changes, a streamed block's highlighter is built off the GUI thread, and a long reply's
text blocks are drawn whole rather than rebuilt as the list moves, and no block of prose hands the layout
its natural width."""

from __future__ import annotations

import asyncio
import threading

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor
from PySide6.QtQuick import QQuickItem

from app.renderer.timeline.turn_view import item_text
from tests.conftest import scripted_agent_argv
from tests.ui.window.test_window import open_tour
from tests.ui_harness import find_all, has_colour_near


def test_a_code_block_names_its_language_and_is_highlighted_again_when_the_theme_changes(ui):
    async def scenario():
        window = await open_tour(ui)
        objects = window.objects
        await ui.until(lambda: not objects.session.busy, 30)
        model = objects.model
        items = objects.session.timeline.items
        coded = next(
            r
            for r in ui.rows(window, "assistant-text")
            if any("```python" in item_text(items[i]) for i in r.item_ids if i in items)
        )
        objects.conversation.scrollToRow.emit(model.view_row_of_key(coded.key))
        await asyncio.sleep(0.6)  # scrolled to it: its delegate exists
        languages = [t.property("text") for t in find_all(window.root.contentItem(), "codeLanguage")]
        assert "python" in languages  # each code block's header names its language beside Copy
        copy = find_all(window.root.contentItem(), "copyCode")
        assert copy and all(button.property("visible") for button in copy)
        await ui.screenshots(window, "57-code-block-header")
        blocks = ui.role(window, coded, "blocks")
        html_role = next(r for r, n in blocks.roleNames().items() if bytes(n) == b"html")

        def code_html() -> str:
            for row in range(blocks.rowCount()):
                index = blocks.index(row)
                if blocks.data(index, html_role) and "def" in blocks.data(index, html_role):
                    return blocks.data(index, html_role)
            return ""

        light = code_html()
        objects.app.setColorScheme("dark")  # code already shown is highlighted for the dark theme
        await ui.until(lambda: code_html() not in ("", light))
        objects.app.setColorScheme("light")
        await ui.until(lambda: code_html() == light)

    ui.run(scenario())


def test_a_streamed_code_block_s_highlighter_is_built_off_the_gui_thread(ui, monkeypatch):
    """The first code block of a language in a run: its lexer (Python's compiles its regular expressions
    for tens of milliseconds) is built on the highlighter thread while the block streams, never where the
    reply is rendered; the settled reply shows the block highlighted."""
    from app.renderer.markdown import highlighters

    monkeypatch.setattr(highlighters, "_builds", {})  # no lexer built yet in this process
    built_on: list[tuple[str, str]] = []
    real = highlighters.make_lexer

    def recorded(lang: str):
        built_on.append((lang, threading.current_thread().name))
        return real(lang)

    monkeypatch.setattr(highlighters, "make_lexer", recorded)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "paced 3000 3000")  # a 40-line Python block streamed in ~1 s
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        await ui.until(lambda: not objects.session.busy, 20)
        assert [lang for lang, _ in built_on] == ["python"]  # built once ...
        assert built_on[0][1].startswith("highlighter")  # ... on the highlighter thread
        row = ui.rows(window, "assistant-text")[-1]
        blocks = ui.role(window, row, "blocks")
        roles = {bytes(n): r for r, n in blocks.roleNames().items()}
        kinds = [blocks.data(blocks.index(i), roles[b"kind"]) for i in range(blocks.rowCount())]
        code = kinds.index("code")
        html = blocks.data(blocks.index(code), roles[b"html"])
        assert "<span" in html and "compute" in html  # highlighted once settled
        assert blocks.data(blocks.index(code), roles[b"tail"]) == ""

    ui.run(scenario())


def test_text_blocks_of_a_long_reply_are_drawn_whole_not_rebuilt_when_the_list_moves(ui):
    """Qt culls a TextEdit whose text passes 10,000 characters to the lines in view and builds its nodes
    again whenever an item above it moves: every flush of a streaming reply moved every such block of
    the conversation. Chat blocks are bounded, so each is drawn whole once; scrolled into view later,
    its text is there."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "hostile-render links")

        def large_blocks() -> list:
            prose = find_all(window.root.contentItem(), "proseText")
            return [edit for edit in prose if len(edit.property("text")) > 10_000]

        edits = await ui.until(lambda: len(large_blocks()) >= 2 and large_blocks(), 30)  # past Qt's threshold
        await ui.frames(window, 2)
        observing = [e for e in edits if e.flags() & QQuickItem.Flag.ItemObservesViewport]
        assert not observing, f"{len(observing)} of {len(edits)} large blocks are culled to the view"

        entries = ui.item(window, "timeline")
        first = min(edits, key=lambda edit: edit.mapToScene(QPointF(0, 0)).y())
        top = first.mapToItem(entries.property("contentItem"), QPointF(0, 0)).y()
        entries.setProperty("contentY", top)  # the reply's first block, drawn before it was in view
        await ui.frames(window, 2)
        image = window.root.grabWindow()
        shown = first.mapRectToScene(QRectF(0, 0, first.width(), min(first.height(), 200)))
        link = QColor(window.objects.app.property("linkColour"))
        assert has_colour_near(image, shown, (link.red(), link.green(), link.blue()))

    ui.run(scenario())


def test_no_block_of_prose_hands_its_natural_width_to_the_layout(ui):
    """A TextEdit asked for its natural width lays its whole text out again unwrapped on every change;
    the block's Loader read it, so each long paragraph was laid out twice or more per change (bidi text
    and joined emoji, costly to shape, stalled the window for 130-170 ms instead of 50). A block of prose
    sits in an item of no natural width: its Loader is as wide as the column, never as the text."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "blast 60")  # one paragraph of 12,000 characters, in a few blocks

        def prose(longer_than: int = 0, holding: str = "") -> list:
            texts = [(e, e.property("text")) for e in find_all(window.root.contentItem(), "proseText")]
            return [e for e, text in texts if len(text) > longer_than and holding in text]

        edits = await ui.until(lambda: prose(longer_than=4_000))
        await ui.frames(window, 2)
        for edit in edits:
            loader = edit.parentItem().parentItem()
            assert 0 < edit.width() <= loader.width() and loader.implicitWidth() <= loader.width()
        # a user's bubble still fits its words: "blast 60" on one line, not a word a line
        asked = prose(holding="blast 60")
        assert asked and asked[0].property("lineCount") == 1

    ui.run(scenario())
