"""The agent's file writes in the real window: a "files changed" section on the turn with the diff
against what the agent last read, and a revert that refuses to clobber a later edit by the user."""

from __future__ import annotations

from tests.conftest import scripted_agent_argv
from tests.ui_harness import plain_text


def _footer_files(ui, window) -> list[dict]:
    return [
        file for row in ui.rows(window, "turn-footer") for file in ui.role(window, row, "footer")["files"]
    ]


def test_a_write_shows_as_files_changed_with_a_diff_and_reverts(ui):
    (ui.tmp_path / "notes.txt").write_text("first line\n")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "fs-read notes.txt")
        await ui.until(lambda: not objects.session.busy)
        await ui.type_and_send(window, "fs-write notes.txt first line\\nsecond line\\n")
        await ui.until(lambda: not objects.session.busy)
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
