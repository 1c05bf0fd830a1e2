"""The turn's changes with the real OpenClaw: its own `exec` tool (allowed in the window, run by the
gateway, not through ClawQt's fs/* or terminals) changes a file of the chat's folder and creates
another; the turn's footer lists both, and the review pane undoes one of the file's two changes and
leaves the other."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.renderer.timeline.serialize import item_record
from tests.ui.review.test_turn_changes_window import _footer_files
from tests.ui.terminals.panel_support import mouse_click
from tests.ui_harness import find_all

pytestmark = pytest.mark.e2e

LINES = "".join(f"line {n}\n" for n in range(1, 21))


def test_a_file_openclaws_own_shell_command_changed_is_the_turns_and_one_hunk_undoes(ui, openclaw):
    target = ui.tmp_path / "app.txt"
    target.write_text(LINES)
    script = ui.tmp_path / "edit.sh"  # one plain command: OpenClaw's approval refuses to bind a chain
    edit = "s/^line 3$/line three/; s/^line 15$/line fifteen/"
    script.write_text(f"cd {ui.tmp_path}\nsed -i '{edit}' app.txt\necho made > made.txt\n")
    command = f"sh {script}"

    async def scenario():
        window = await ui.open(openclaw.agent_argv())
        objects = window.objects
        await ui.type_and_send(window, f"run shell: {command}")
        await ui.until(
            lambda: "permission" in ui.kinds(window),
            60,
            seen=lambda: [str(item_record(i))[:1500] for i in objects.session.timeline.items.values()],
        )
        await ui.frames(window, 2)
        (await ui.shown(window, "permissionOption_allow-once")).forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy, 90)
        assert (ui.tmp_path / "made.txt").read_text() == "made\n"

        files = await ui.until(
            lambda: len(_footer_files(ui, window)) == 2 and _footer_files(ui, window),
            30,
            seen=lambda: list(_footer_files(ui, window)),
        )
        assert "+line three" in files["app.txt"]["diff"] and files["made.txt"]["created"]
        await mouse_click(ui, window, "reviewTurnButton")
        await ui.until(lambda: len(find_all(window.root.contentItem(), "reviewHunk")) == 2)
        await ui.key(window, Qt.Key.Key_U)  # the first of the file's two changes
        await ui.until(lambda: target.read_text() == LINES.replace("line 15\n", "line fifteen\n"))
        await ui.screenshot(window, "e2e-10-openclaw-review")

    ui.run(scenario(), timeout=180)
