"""The fixtures of the fast-agent tests (test_fast_agent.py, test_fast_agent_sessions.py): fast-agent
installed once (tests/fast_agent_support.py; a failed install FAILS the tests in words), a workspace
folder, and `start` to run it there through ChatService and the headless pipeline."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from app.renderer.timeline.pipeline import HeadlessPipeline
from tests.fast_agent_support import ensure_fast_agent, fast_agent_args
from tests.real_agents_support import InstalledAgent, installed_or_fail

log = logging.getLogger(__name__)


@pytest.fixture(scope="session")
def fast_agent() -> InstalledAgent:
    """fast-agent installed in .cache/ (on first use), with a Python >= 3.12 of this machine."""
    agent = installed_or_fail("fast-agent", ensure_fast_agent)
    log.info(
        "fast-agent %s (%s): %s in %.3f s",
        agent.version,
        agent.runtime,
        "installed" if agent.installed_now else "cached",
        agent.setup_seconds,
    )
    return agent


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return Path(os.path.realpath(folder))


@pytest.fixture
def start(make_service, fast_agent, workspace, tmp_path):
    """`start(model=..., shell=...)` -> (service, envelopes, pipeline) running fast-agent in `workspace`;
    every agent a test starts shares one fast-agent home (its saved sessions)."""
    home = tmp_path / "fast-agent-home"

    def start_agent(model: str = "passthrough", *, shell: bool = True):
        argv = fast_agent.argv + fast_agent_args(home, model, shell=shell)
        service, envelopes = make_service(argv, cwd=str(workspace))
        return service, envelopes, HeadlessPipeline(service)

    return start_agent
