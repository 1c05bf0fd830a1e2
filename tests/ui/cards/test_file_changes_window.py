"""The agent's file writes in the real window: a "files changed" section on the turn with the diff
against what the agent last read, and a revert that refuses to clobber a later edit by the user."""

from __future__ import annotations

from tests.conftest import scripted_agent_argv
from tests.ui_harness import plain_text


def _footer_files(ui, window) -> list[dict]:
    return [
        file for row in ui.rows(window, "turn-footer") for file in ui.role(window, row, "footer")["files"]
    ]


async def _agent_rewrote_notes(ui):
    """A window whose agent read notes.txt, then wrote it with a second line."""
    window = await ui.open(scripted_agent_argv())
    await ui.type_and_send(window, "fs-read notes.txt")
    await ui.until(lambda: not window.objects.session.busy)
    await ui.type_and_send(window, "fs-write notes.txt first line\\nsecond line\\n")
    await ui.until(lambda: not window.objects.session.busy)
    return window


def test_a_write_shows_as_files_changed_with_a_diff_and_reverts(ui):
    (ui.tmp_path / "notes.txt").write_text("first line\n")

    async def scenario():
        window = await _agent_rewrote_notes(ui)
        objects = window.objects
        assert (ui.tmp_path / "notes.txt").read_text() == "first line\nsecond line\n"
        await ui.shown(window, "filesChanged")
        [changed] = await ui.until(lambda: _footer_files(ui, window))
        assert changed["name"] == "notes.txt" and not changed["created"]
        assert "+second line" in changed["diff"] and "-first line" not in changed["diff"]
        assert (changed["added"], changed["removed"]) == (1, 0)
        ui.item(window, "fileDiffToggle").clicked.emit()
        body = await ui.shown(window, "diffBody")
        await ui.until(lambda: body.height() > 0)
        shown = plain_text(body)
        assert shown == "@@ -1 +1,2 @@\n1 1   first line\n  2 + second line"  # context, then added
        await ui.screenshots(window, "14-files-changed")
        ui.item(window, "fileDiffToggle").clicked.emit()

        ui.item(window, "revertButton").clicked.emit()
        await ui.until(lambda: not _footer_files(ui, window))
        assert (ui.tmp_path / "notes.txt").read_text() == "first line\n"

        # a second write, then the user edits the file: revert refuses and says why
        await ui.type_and_send(window, "fs-write notes.txt agent text\\n")
        await ui.until(lambda: not objects.session.busy)
        await ui.until(lambda: _footer_files(ui, window))
        (ui.tmp_path / "notes.txt").write_text("the user's own edit\n")
        revert = await ui.shown(window, "revertButton")
        revert.clicked.emit()
        await ui.until(lambda: "Not reverted" in objects.notices.notice)
        assert (ui.tmp_path / "notes.txt").read_text() == "the user's own edit\n"

    ui.run(scenario())


def test_a_files_diff_opened_stays_open_when_its_row_is_scrolled_away_and_back(ui):
    """Whether a file's diff is open is the row's view state (RowView), not its delegate's: a delegate
    is destroyed, or reused for another row, once the row leaves the view."""
    (ui.tmp_path / "notes.txt").write_text("first line\n")

    async def scenario():
        window = await _agent_rewrote_notes(ui)
        objects = window.objects
        await ui.until(lambda: _footer_files(ui, window))
        ui.item(window, "fileDiffToggle").clicked.emit()
        await ui.shown(window, "diffBody")
        [footer] = [r for r in ui.rows(window, "turn-footer") if ui.role(window, r, "footer")["files"]]
        assert [f["open"] for f in ui.role(window, footer, "footer")["files"]] == [True]

        await ui.let_go_of_every_row(window, gone="diffBody")  # as scrolling far away does
        objects.conversation.scrollToRow.emit(objects.model.view_row_of_key(footer.key))
        body = await ui.shown(window, "diffBody")
        assert "+ second line" in plain_text(body)

    ui.run(scenario())
