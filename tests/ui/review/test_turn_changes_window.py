"""What a turn changed in the chat's folder, whoever changed it, in the real window: the scripted
agent edits, creates and deletes files with its own shell command (no fs/* request), and the turn's
footer lists every one with its diff; Revert puts one back and leaves the others; a file the user
edited after the turn is never overwritten."""

from __future__ import annotations

from tests.conftest import scripted_agent_argv


def _footer_files(ui, window) -> dict[str, dict]:
    return {
        file["name"]: file
        for row in ui.rows(window, "turn-footer")
        for file in ui.role(window, row, "footer")["files"]
    }


def test_a_shell_commands_changes_are_the_turns_and_each_can_be_put_back(ui):
    folder = ui.tmp_path
    (folder / "notes.txt").write_text("first\n")
    (folder / "gone.txt").write_text("old file\n")
    (folder / "keep.txt").write_text("kept\n")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        command = (
            "printf 'second\\n' >> notes.txt && rm gone.txt && echo made > made.txt && echo x >> keep.txt"
        )
        await ui.send_and_settle(window, f"shell {command}")
        files = await ui.until(lambda: len(_footer_files(ui, window)) == 4 and _footer_files(ui, window))
        assert "+second" in files["notes.txt"]["diff"] and not files["notes.txt"]["created"]
        assert files["made.txt"]["created"] and "+made" in files["made.txt"]["diff"]
        assert files["gone.txt"]["deleted"] and "-old file" in files["gone.txt"]["diff"]
        await ui.screenshots(window, "90-turn-changes-shell")

        # put one back (the slot each file's Revert button calls): the others stay the turn's
        objects.files.revert(_turn_of(ui, window), str(folder / "notes.txt"))
        await ui.until(lambda: "notes.txt" not in _footer_files(ui, window))
        assert (folder / "notes.txt").read_text() == "first\n"
        assert set(_footer_files(ui, window)) == {"gone.txt", "made.txt", "keep.txt"}
        objects.files.revert(_turn_of(ui, window), str(folder / "gone.txt"))
        await ui.until(lambda: "gone.txt" not in _footer_files(ui, window))
        assert (folder / "gone.txt").read_text() == "old file\n"

        # the user edits a file after the turn: it is not clobbered, and the window says why
        (folder / "keep.txt").write_text("the user's own edit\n")
        objects.files.revert(_turn_of(ui, window), str(folder / "keep.txt"))
        await ui.until(lambda: "changed since this turn" in objects.notices.notice)
        assert (folder / "keep.txt").read_text() == "the user's own edit\n"
        assert "keep.txt" in _footer_files(ui, window)

    ui.run(scenario())


def _turn_of(ui, window) -> str:
    [footer] = [r for r in ui.rows(window, "turn-footer") if ui.role(window, r, "footer")["files"]]
    return ui.role(window, footer, "footer")["messageId"]


def test_a_file_the_user_changed_between_turns_is_shown_as_theirs_not_the_agents(ui):
    folder = ui.tmp_path
    (folder / "app.txt").write_text("v0\n")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.send_and_settle(window, "shell echo v1 > app.txt")
        footers = lambda: [ui.role(window, row, "footer")["files"] for row in ui.rows(window, "turn-footer")]  # noqa: E731
        await ui.until(lambda: footers() and footers()[0])  # the turn's files were read after it ended
        (folder / "notes.md").write_text("the user's own notes\n")  # between the turns, in an editor
        await ui.send_and_settle(window, "shell echo v2 > app.txt")
        users = lambda: [ui.role(window, row, "outside") for row in ui.rows(window, "user")]  # noqa: E731
        await ui.until(lambda: [len(files) for files in users()] == [0, 1])
        [[mine]] = [files for files in users() if files]
        assert mine["name"] == "notes.md" and mine["created"]
        await ui.shown(window, "outsideChanges")
        assert "notes.md" in ui.item(window, "outsideChanges").property("text")
        footers = [
            f["name"]
            for row in ui.rows(window, "turn-footer")
            for f in ui.role(window, row, "footer")["files"]
        ]
        assert footers == ["app.txt", "app.txt"]  # the agent's turns list only what they changed
        await ui.screenshots(window, "94-changed-outside-the-chat")

    ui.run(scenario())
