"""The agent file tests' workspace."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """The session's workspace; tmp_path itself (its parent) counts as outside."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace
