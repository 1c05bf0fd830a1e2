"""The conversation reads as one centred column: the user's message, the agent's prose, its tool
cards, the turn's footer and the composer share one left and one right edge at any window width (prose
used to stop at 760 px while cards ran to the window's edge, everything pushed right by a 44 px
gutter), and the turn says whose it is over its first row."""

from __future__ import annotations

from PySide6.QtCore import QPointF

from tests.ui.window.test_window import open_tour
from tests.ui_harness import find_all


def _in_bubble(item) -> bool:
    while item is not None:
        if item.objectName() == "userBubble":
            return True
        item = item.parentItem()
    return False


def _edges(window, name: str) -> set[tuple[int, int]]:
    """(left, right) in the window of each visible item named `name` (the agent's, not the user's words)."""
    found = set()
    for item in find_all(window.root.contentItem(), name):
        if item.isVisible() and item.width() > 0 and (name == "userBubble" or not _in_bubble(item)):
            left = item.mapToScene(QPointF(0, 0)).x()
            found.add((round(left), round(left + item.width())))
    return found


def test_prose_cards_and_the_users_message_share_one_centred_column_at_any_width(ui):
    async def scenario():
        window = await open_tour(ui)
        await ui.until(lambda: not window.objects.session.busy, 30)
        await ui.type_and_send(window, "/echo the user's message, in view")
        await ui.until(lambda: not window.objects.session.busy, 30)
        timeline = ui.item(window, "timeline")
        for width in (1280, 1800):
            window.root.resize(width, 900)
            await ui.frames(window, 3)
            list_left = timeline.mapToScene(QPointF(0, 0)).x()
            centre = list_left + timeline.width() / 2
            prose, cards = _edges(window, "proseText"), _edges(window, "toolCard")
            assert prose and cards
            column = {right for _left, right in prose | cards}
            assert len(column) == 1, (width, prose, cards)  # one right edge
            lefts = {left for left, _right in prose | cards}
            assert len(lefts) == 1, (width, lefts)  # one left edge
            (left,), (right,) = lefts, column
            assert abs((left + right) / 2 - centre) <= 1, (width, left, right, centre)  # centred
            assert right - left <= 760  # a measure a reader's eye can follow
            bubble_right = {right for _left, right in _edges(window, "userBubble")}
            assert bubble_right == column, (width, bubble_right, column)  # the user's message ends there too
            assert _edges(window, "composerCard") == {(left, right)}  # and the composer is the column's too
        everything = find_all(window.root.contentItem(), "turnAgentName")
        names = [item for item in everything if item.isVisible()]
        assert names, [
            (n.isVisible(), n.parentItem().parentItem().property("first")) for n in everything
        ] and names[0].property("text") == window.objects.agent.label
        await ui.screenshots(window, "60-reading-column")

    ui.run(scenario())
