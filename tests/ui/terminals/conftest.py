"""Terminal window tests' fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture
def plain_bash(monkeypatch, tmp_path):
    """bash without the user's own rc files, so screens are predictable."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
