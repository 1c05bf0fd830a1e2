"""The review pane in the real window: a turn whose shell command changed two places of a file is
reviewed hunk by hunk from its footer's Review button, with the keyboard alone (U undoes the hunk the
pane is on and leaves the other, Y keeps it), and Undo all of this turn, confirmed, puts the file back."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from tests.conftest import scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click
from tests.ui_harness import find_all

LINES = "".join(f"line {n}\n" for n in range(1, 21))
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


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


def test_every_change_of_the_chat_is_reviewed_turn_by_turn_and_a_comment_names_its_line(ui):
    target = ui.tmp_path / "app.txt"
    target.write_text(LINES)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        review = window.objects.review
        await ui.send_and_settle(window, "shell sed -i 's/^line 3$/line three/' app.txt")
        await ui.send_and_settle(
            window,
            "shell sed -i 's/^line 15$/line fifteen/; s/^line 16$/line sixteen/' app.txt && echo n > new.txt",
        )
        await ui.key(window, Qt.Key.Key_R, CTRL_SHIFT)  # Review all changes
        await ui.shown(window, "reviewPane")
        await ui.until(lambda: review.count == 3, seen=lambda: review.files)  # two hunks and a new file
        assert review.wholeChat and review.turnId == ""
        labels = [label.property("text") for label in find_all(window.root.contentItem(), "reviewTurnLabel")]
        labels = sorted(label for label in labels if label)
        assert len(labels) == 2 and all(label.startswith("After \u201cshell sed -i") for label in labels)
        assert ui.item(window, "reviewUndoTurn").property("text") == "Undo every change"
        await mouse_click(ui, window, "reviewSideBySide")  # old and new lines in two columns
        await ui.until(lambda: review.sideBySide)
        bodies = [b for b in find_all(window.root.contentItem(), "diffBody") if b.isVisible()]
        await ui.until(lambda: all("<table" in b.property("text") for b in bodies) and bodies)
        await ui.screenshots(window, "99-review-side-by-side")
        await mouse_click(ui, window, "reviewSideBySide")
        await ui.until(lambda: not review.sideBySide)

        # a comment on one line of the two-line change
        await ui.key(window, Qt.Key.Key_J)
        picker = next(c for c in find_all(window.root.contentItem(), "reviewCommentLine") if c.isVisible())
        picker.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Down)  # "Line 15"
        await ui.key(window, Qt.Key.Key_Down)  # "Line 16"
        await ui.until(lambda: picker.property("currentText") == "Line 16")
        field = next(
            f
            for f in find_all(window.root.contentItem(), "reviewComment")
            if f.isVisible() and f.parentItem() is picker.parentItem()
        )
        field.forceActiveFocus()
        await ui.keys(window, "say sixteen")
        await ui.until(lambda: review.commentCount == 1)
        await ui.screenshots(window, "98-review-all-changes")
        await mouse_click(ui, window, "reviewSendComments")
        sent = "Comments on your changes:\n- In app.txt line 16: say sixteen"
        await ui.until(
            lambda: any(ui.role(window, row, "text") == sent for row in ui.rows(window, "user")),
            seen=lambda: [ui.role(window, row, "text") for row in ui.rows(window, "user")],
        )

        # the first turn's change undone from the chat's review; the second turn's stay
        ui.item(window, "reviewPane").forceActiveFocus()
        review.goTo(0)
        await ui.key(window, Qt.Key.Key_U)
        await ui.until(lambda: "line 3\n" in target.read_text())
        assert "line fifteen\nline sixteen\n" in target.read_text() and (ui.tmp_path / "new.txt").exists()
        hunks = lambda: [h["diff"] for e in review.files for h in e["hunks"]]  # noqa: E731
        await ui.until(lambda: not any("+line three" in d for d in hunks()), seen=hunks)
        assert any("+line sixteen" in d for d in hunks())  # the second turn's change is still there

    ui.run(scenario())
