"""UI tests use the shared window harness (tests/ui_harness.py)."""

from tests.ui_harness import SCREENSHOTS, UiHarness, ui  # noqa: F401
