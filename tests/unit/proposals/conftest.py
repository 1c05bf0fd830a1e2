"""One set of proposal channels per test, with a moved clock (channel_support.py)."""

from __future__ import annotations

import pytest

from tests.unit.proposals.channel_support import Fixture


@pytest.fixture
def f() -> Fixture:
    return Fixture()
