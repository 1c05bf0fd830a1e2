"""Where the suite is: the tests folder and the repository around it (one definition for every helper;
the caches and fixtures are found from here)."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"  # what the window tests saw, for a person to look at
