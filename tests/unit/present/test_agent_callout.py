"""The failure callout's title says what happened to which agent in plain words."""

from __future__ import annotations

from app.renderer.present.agent_callout import callout_title


def test_the_callout_title_names_the_agent_and_what_happened_to_it():
    assert callout_title("Claude", "failed", "agent-not-found", -1, False) == "Claude is not installed"
    assert callout_title("Claude", "exited", "", 1, False) == "Claude stopped unexpectedly"
    assert callout_title("Claude", "exited", "", 0, False) == "Claude quit"
    assert callout_title("OpenClaw", "", "", -1, True) == "OpenClaw stopped answering"
    assert callout_title("Codex", "failed", "initialize-failed", 2, False) == "Codex did not start"
    assert callout_title("", "failed", "something-new", -1, False) == "The agent is not available"
