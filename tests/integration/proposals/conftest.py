"""The proposal service on a real endpoint and a real shell, with the envelopes it emits kept."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from app.main.proposals.service import ProposalService, clawqt_executable
from app.main.terminals.user import UserTerminals


@pytest.fixture
async def pipeline(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PS1", "$ ")
    runtime = tempfile.mkdtemp(prefix="cq", dir="/tmp")  # a socket path must stay short
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
    executable = clawqt_executable()
    assert executable is not None, "the clawqt console script is installed with the package"
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    envelopes: list = []
    live = {"turn": "turn-1"}
    service = ProposalService(
        terminals, envelopes.append, lambda key, generation, turn: turn == live["turn"], executable
    )
    await service.start()
    assert service.available, service.problem
    yield service, terminals, envelopes, live, executable, tmp_path
    await service.stop()
    await terminals.shutdown()
    shutil.rmtree(runtime, ignore_errors=True)
