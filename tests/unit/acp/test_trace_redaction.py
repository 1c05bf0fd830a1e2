"""A recorded trace never holds a terminal credential (they live in memory only)."""

from __future__ import annotations

import json
import secrets

from app.main.acp.recorder import TraceRecorder


def test_capabilities_bearers_and_the_install_secret_are_redacted_in_traces(tmp_path):
    capability = "cqt_" + secrets.token_urlsafe(32)
    bearer = "cqs_" + secrets.token_urlsafe(32)
    install = "cqi_" + secrets.token_urlsafe(32)
    recorder = TraceRecorder(tmp_path / "t.jsonl")
    recorder.message(
        "send", {"params": {"prompt": [{"type": "text", "text": f"contextToken: {capability}"}]}}
    )
    recorder.message("send", {"params": {"mcpServers": [{"headers": [{"value": f"Bearer {bearer}"}]}]}})
    recorder.stderr(f"config {install}")
    recorder.close()
    text = (tmp_path / "t.jsonl").read_text()
    assert capability not in text and bearer not in text and install not in text
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0]["msg"]["params"]["prompt"][0]["text"] == "contextToken: cqt_<redacted>"
    assert "cqs_<redacted>" in text and "cqi_<redacted>" in text
