"""Review with an agent ClawQt did not write: fast-agent (a real subprocess; its `passthrough` model
runs `execute` from the prompt, in ClawQt's terminal after the user allowed it). Its shell command
changes two places of a file and creates another, with no fs/* request: the turn's footer lists both,
the review pane undoes one of the two hunks and leaves the other, and a file the user edited after
the turn is not overwritten."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from tests.fast_agent_support import ensure_fast_agent, fast_agent_args
from tests.real_agents_support import installed_or_fail
from tests.ui.review.test_turn_changes_window import _footer_files
from tests.ui.terminals.panel_support import mouse_click
from tests.ui_harness import find_all

pytestmark = pytest.mark.real_agents

LINES = "".join(f"line {n}\n" for n in range(1, 21))
COMMAND = "sed -i 's/^line 3$/line three/; s/^line 15$/line fifteen/' app.txt && echo made > made.txt"


def test_fast_agents_shell_command_is_reviewed_hunk_by_hunk(ui, tmp_path_factory):
    agent = installed_or_fail("fast-agent", ensure_fast_agent)
    home = tmp_path_factory.mktemp("fast-agent-home")  # outside the chat's folder: its saved sessions
    argv = agent.argv + fast_agent_args(home, "passthrough", shell=True)  # are not the turn's changes
    target = ui.tmp_path / "app.txt"
    target.write_text(LINES)
    (ui.tmp_path / "notes.txt").write_text("mine\n")

    async def scenario():
        window = await ui.open(argv, start=False)
        objects = window.objects
        objects.start()  # fast-agent takes its time to start on a busy machine
        await ui.until(lambda: objects.session.sessionKey, 90, seen=lambda: objects.agent.message)
        await ui.type_and_send(window, "***CALL_TOOL execute " + json.dumps({"command": COMMAND}))
        waiting = await ui.until(
            lambda: next(
                (i for i in objects.session.timeline.items.values() if i.kind == "permission"), None
            ),
            30,
        )
        allow = next(o["optionId"] for o in waiting.options if o["kind"] == "allow_once")
        (await ui.shown(window, f"permissionOption_{allow}")).forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy and (ui.tmp_path / "made.txt").exists(), 30)

        # the footer: both files, though fast-agent never wrote through fs/*
        files = await ui.until(
            lambda: len(_footer_files(ui, window)) == 2 and _footer_files(ui, window),
            15,
            seen=lambda: list(_footer_files(ui, window)),
        )
        assert "+line three" in files["app.txt"]["diff"] and files["made.txt"]["created"]
        await mouse_click(ui, window, "reviewTurnButton")
        await ui.until(lambda: len(find_all(window.root.contentItem(), "reviewHunk")) >= 2)
        await ui.key(window, Qt.Key.Key_U)  # the first hunk of app.txt
        await ui.until(lambda: target.read_text() == LINES.replace("line 15\n", "line fifteen\n"))

        # the user edits the file the turn left: Undo all of this turn leaves it as it is
        target.write_text(target.read_text() + "the user's own line\n")
        await mouse_click(ui, window, "reviewUndoTurn")
        await mouse_click(ui, window, "reviewUndoTurnYes")
        await ui.until(lambda: not (ui.tmp_path / "made.txt").exists())
        await ui.until(lambda: "changed since" in objects.review.said, seen=lambda: objects.review.said)
        rest = LINES.split("line 15\n")[1]
        assert target.read_text().endswith(f"line fifteen\n{rest}the user's own line\n")
        assert (ui.tmp_path / "notes.txt").read_text() == "mine\n"

    ui.run(scenario(), timeout=200)
