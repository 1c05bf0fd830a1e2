"""Replay tests run the demo agent without its pauses."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fast_demo(monkeypatch):
    monkeypatch.setenv("CLAWQT_DEMO_DELAY_MS", "0")
