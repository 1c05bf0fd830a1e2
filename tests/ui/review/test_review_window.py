"""The review pane in the real window: a turn whose shell command changed two places of a file is
reviewed hunk by hunk from its footer's Review button, with the keyboard alone (U undoes the hunk the
pane is on and leaves the other, Y keeps it), and Undo all of this turn, confirmed, puts the file back."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from tests.conftest import scripted_agent_argv
from tests.ui.terminals.test_panel_window import mouse_click
from tests.ui_harness import find_all

LINES = "".join(f"line {n}\n" for n in range(1, 21))


def test_a_turn_is_reviewed_hunk_by_hunk_with_the_keyboard_and_undone_whole(ui):
    target = ui.tmp_path / "app.txt"
    target.write_text(LINES)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        review = window.objects.review
        await ui.send_and_settle(
            window, "shell sed -i 's/^line 3$/line three/; s/^line 15$/line fifteen/' app.txt"
        )
        await ui.shown(window, "reviewTurnButton")
        await mouse_click(ui, window, "reviewTurnButton")
        await ui.shown(window, "reviewPane")
        await ui.until(lambda: len(find_all(window.root.contentItem(), "reviewHunk")) == 2)
        assert review.count == 2 and review.current == 0
        await ui.screenshots(window, "91-review-pane")

        await ui.key(window, Qt.Key.Key_U)  # the first hunk, where the pane starts
        await ui.until(lambda: review.count == 1)
        assert target.read_text() == LINES.replace("line 15\n", "line fifteen\n")
        await ui.key(window, Qt.Key.Key_Y)  # the other one is kept: it stays, marked
        await ui.until(lambda: review.count == 0)
        [kept] = review.files[0]["hunks"]
        assert kept["kept"] and "+line fifteen" in kept["diff"]
        assert target.read_text() == LINES.replace("line 15\n", "line fifteen\n")
        await ui.screenshots(window, "92-review-kept")

        await mouse_click(ui, window, "reviewUndoTurn")
        await ui.shown(window, "reviewUndoTurnYes")
        await mouse_click(ui, window, "reviewUndoTurnYes")
        await ui.until(lambda: review.files == [])
        assert target.read_text() == LINES
        assert ui.item(window, "reviewCount").property("text") == "Nothing left to review"
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not review.isOpen)
        assert not ui.item(window, "reviewPaneLoader").property("active")  # the pane is let go

    ui.run(scenario())


def test_comments_on_changes_go_to_the_agent_as_the_next_message_and_the_draft_stays(ui):
    (ui.tmp_path / "app.txt").write_text(LINES)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.send_and_settle(
            window, "shell sed -i 's/^line 3$/line three/; s/^line 15$/line fifteen/' app.txt"
        )
        objects.turn.setDraft("half a thought the user is still typing")
        await mouse_click(ui, window, "reviewTurnButton")
        await ui.until(lambda: len(find_all(window.root.contentItem(), "reviewComment")) == 2)
        fields = sorted(
            find_all(window.root.contentItem(), "reviewComment"),
            key=lambda f: f.mapToScene(QPointF(0, 0)).y(),
        )
        fields[1].forceActiveFocus()
        await ui.keys(window, "spell it out as 15")
        await ui.until(lambda: objects.review.commentCount == 1)
        await ui.screenshots(window, "95-review-comment")
        await mouse_click(ui, window, "reviewSendComments")
        sent = "Comments on your changes:\n- In app.txt line 15: spell it out as 15"
        await ui.until(
            lambda: any(ui.role(window, row, "text") == sent for row in ui.rows(window, "user")),
            seen=lambda: [ui.role(window, row, "text") for row in ui.rows(window, "user")],
        )
        assert objects.turn.draft == "half a thought the user is still typing"  # the composer kept it
        assert objects.review.commentCount == 0

    ui.run(scenario())
