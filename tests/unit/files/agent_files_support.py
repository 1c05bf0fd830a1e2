"""The agent's file access as its tests call it: a read in the workspace, a refusal with its code, and
whether a failed write left a temporary file behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.main.files.agent_files import AgentFileError, AgentFiles

S = "session-1"


def read_file(
    files: AgentFiles, ws: Path, path: str | Path, line: int | None = None, limit: int | None = None
):
    return files.read(S, [str(ws)], str(path), line, limit)


def refused(code: str, call, *args) -> AgentFileError:
    with pytest.raises(AgentFileError) as caught:
        call(*args)
    assert caught.value.code == code, str(caught.value)
    return caught.value


def no_temp_files(directory: Path) -> bool:
    return not [p for p in directory.iterdir() if p.name.startswith(".clawqt-")]
