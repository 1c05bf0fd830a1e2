"""A tool call's diff in the real window: a unified diff with context, line numbers and +/- colours on
the rendered card, and a long diff collapsed until "Show all"."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF

from app.renderer.present.diff_html import COLLAPSED_LINES, DARK, LIGHT
from tests.conftest import scripted_agent_argv
from tests.ui_harness import has_colour_near, plain_text


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


async def _open_edit_card(ui, window, prompt: str):
    """Send `prompt`, wait for the edit card to finish and close by itself, then open it (the user's
    toggle wins over the collapse rule, so the card stays open)."""
    objects = window.objects
    await ui.type_and_send(window, prompt)
    await ui.until(lambda: not objects.session.busy)
    [row] = await ui.until(lambda: ui.rows(window, "tool"))
    await ui.until(lambda: not ui.role(window, row, "tools")[0]["expanded"], 5)
    ui.item(window, "toolToggle").clicked.emit()
    return await ui.until(lambda: ui.find(window, "diffBody"))


def _body_rect(body) -> QRectF:
    top_left = body.mapToScene(QPointF(0, 0))
    return QRectF(top_left.x(), top_left.y(), body.width(), body.height())


def test_an_edit_card_shows_a_real_unified_diff_with_colours(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        body = await _open_edit_card(ui, window, "edit")
        await ui.until(lambda: body.isVisible() and body.height() > 0)
        assert (
            ui.item(window, "diffAdded").property("text"),
            ui.item(window, "diffRemoved").property("text"),
        ) == (
            "+2",
            "\u22121",
        )
        assert ui.item(window, "diffPath").property("text") == "/work/values.py"
        shown = plain_text(body)
        assert "value_1 = compute(1)" not in shown  # far from a change: not in any hunk's context
        assert "value_2 = compute(2)" in shown and "@@ -2,7 +2,7 @@" in shown  # context around line 5
        assert ui.find(window, "diffShowAll") is None or not ui.item(window, "diffShowAll").isVisible()
        image = window.root.grabWindow()
        rect = _body_rect(body)
        assert has_colour_near(image, rect, _rgb(LIGHT.added_background), tolerance=6)
        assert has_colour_near(image, rect, _rgb(LIGHT.removed_background), tolerance=6)
        assert has_colour_near(image, rect, _rgb(LIGHT.added_word), tolerance=6)  # "cache=True" marked
        await ui.screenshots(window, "23-tool-card-diff")
        window.objects.app.setColorScheme("dark")
        await ui.until(lambda: DARK.added_background in body.property("text"))
        image = window.root.grabWindow()
        assert has_colour_near(image, _body_rect(body), _rgb(DARK.removed_background), tolerance=6)

    ui.run(scenario())


def test_a_long_diff_is_collapsed_until_show_all(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        body = await _open_edit_card(ui, window, "edit long")
        show_all = await ui.shown(window, "diffShowAll")
        assert show_all.property("text") == "Show all 601 lines"
        assert plain_text(body).count("\n") == COLLAPSED_LINES - 1
        collapsed_height = body.height()
        assert collapsed_height > 0 and COLLAPSED_LINES < 601
        show_all.clicked.emit()
        await ui.until(lambda: not show_all.isVisible())
        await ui.until(lambda: body.height() > 5 * collapsed_height)
        text = plain_text(body)
        assert "value_300 = calculate(300)" in text and text.count("\n") == 600
        await ui.screenshot(window, "24-long-diff-shown")

    ui.run(scenario())


def test_a_long_diff_shown_whole_stays_whole_when_its_row_is_scrolled_away_and_back(ui):
    """ "Show all" is the row's view state (RowView), not the card's: the card's delegate goes when the
    row leaves the view, and the diff comes back whole."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await _open_edit_card(ui, window, "edit long")
        (await ui.shown(window, "diffShowAll")).clicked.emit()
        await ui.until(lambda: plain_text(ui.item(window, "diffBody")).count("\n") == 600)
        [row] = ui.rows(window, "tool")
        await ui.let_go_of_every_row(
            window, gone="diffBody"
        )  # as scrolling far away does, without depending on when
        objects.conversation.scrollToRow.emit(objects.model.view_row_of_key(row.key))
        body = await ui.shown(window, "diffBody")
        await ui.until(lambda: plain_text(body).count("\n") == 600)

    ui.run(scenario())
