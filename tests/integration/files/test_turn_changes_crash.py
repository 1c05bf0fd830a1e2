"""An agent that dies in the middle of a turn, after its own shell command changed the chat's folder:
the turn still settles with its change set (the after-snapshot is taken when the prompt fails), so
what the agent changed before it died can be reviewed and undone."""

from __future__ import annotations

import asyncio

import pytest

from app.contract.errors import HostError
from tests.conftest import scripted_agent_argv


async def test_a_crash_mid_turn_keeps_the_files_the_agent_changed_before_it(make_service, tmp_path):
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "app.txt").write_text("before\n")
    service, _envelopes = make_service(scripted_agent_argv(), cwd=str(workspace))
    key = (await service.new_session()).session_key
    turn = "user:crash-turn"
    with pytest.raises(HostError):  # the shell command edits the file, then kills the agent (its parent)
        await service.prompt(key, "shell echo after > app.txt && kill -9 $PPID", client_message_id=turn)
    for _ in range(500):  # the after-snapshot runs beside the failure (a ceiling only a hang reaches)
        if service.files.turns(key):
            break
        await asyncio.sleep(0.02)  # the poll's interval
    assert service.files.turns(key) == [turn]
    [change] = service.files.changes(key, turn)
    assert change.name == "app.txt" and "+after" in change.diff
    service.files.revert(key, turn, change.path)
    assert (workspace / "app.txt").read_text() == "before\n"
