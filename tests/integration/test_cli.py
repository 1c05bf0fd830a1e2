"""The entry points as a user runs them: `clawqt smoke` on the embedded demo agent (what the README's
first command does until the window lands), `--record`, `--agent`, a command that does not exist, and
`clawqt replay`'s exit status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, scripted_agent_argv

DEMO_TRACE = Path(__file__).resolve().parents[1] / "fixtures" / "demo-session.trace.jsonl"


def _run(*args: str, tmp_path, extra_env: dict | None = None) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "CLAWQT_DATA_DIR": str(tmp_path / "data"),
        "CLAWQT_LOG_DIR": str(tmp_path / "logs"),
        "CLAWQT_CONFIG": str(tmp_path / "config.json"),
        "CLAWQT_DEMO_DELAY_MS": "0",
        "PATH": "/usr/bin:/bin",  # no openclaw: the demo agent is the default
        **(extra_env or {}),
    }
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )


def test_default_agent_is_the_demo_and_the_reply_is_printed(tmp_path):
    result = _run("smoke", "/echo hello from the smoke test", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "hello from the smoke test" in result.stdout
    assert "using the built-in demo agent" in result.stderr
    assert "[agent starting]" in result.stderr and "[agent ready]" in result.stderr
    log = (tmp_path / "logs" / "clawqt.log").read_text()
    assert "agent started" in log and "built-in demo agent" in log


def test_record_writes_a_trace_through_the_cli(tmp_path):
    trace = tmp_path / "trace.jsonl"
    result = _run("--record", str(trace), "smoke", "/echo rec", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    entries = [json.loads(line) for line in trace.read_text().splitlines()]
    assert {e["dir"] for e in entries} >= {"send", "recv"}
    assert entries[0]["dir"] == "send" and entries[0]["msg"]["method"] == "initialize"


def test_agent_flag_runs_that_command(tmp_path):
    argv = " ".join(scripted_agent_argv())
    result = _run("--agent", argv, "smoke", "hello", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Hello world" in result.stdout
    assert "chosen with --agent" in result.stderr


def test_config_file_agent_is_used(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"agent": {"command": " ".join(scripted_agent_argv())}}))
    result = _run("smoke", "hello", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Hello world" in result.stdout and "agent.command in" in result.stderr


def test_missing_agent_command_is_a_clear_error(tmp_path):
    result = _run("--agent", "no-such-agent-binary acp", "smoke", tmp_path=tmp_path)
    assert result.returncode == 1
    assert "'no-such-agent-binary' was not found" in result.stderr
    assert "Traceback" not in result.stderr


def test_python_dash_m_app_and_console_script_agree(tmp_path):
    script = os.path.join(os.path.dirname(sys.executable), "clawqt")
    assert os.path.exists(script), "the console script is installed by pip install -e ."
    result = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert result.returncode == 0 and "demo-agent" in result.stdout


def test_replay_exit_status_says_whether_a_session_rendered(tmp_path):
    """0: a session rendered; 1: none could be (a failed session/new used to exit 0 with no sessions);
    2: the trace cannot be read. What failed is on stderr in both forms."""
    failed = tmp_path / "failed.jsonl"
    request = {"id": 1, "method": "session/new", "params": {"cwd": "/w"}}
    answer = {"id": 1, "error": {"code": -32000, "message": "Authentication required"}}
    entries = [{"t": 0, "dir": "send", "msg": request}, {"t": 0.1, "dir": "recv", "msg": answer}]
    failed.write_text("\n".join(json.dumps(entry) for entry in entries))
    assert _run("replay", str(DEMO_TRACE), tmp_path=tmp_path).returncode == 0
    for flags in ((), ("--json",)):
        result = _run("replay", str(failed), *flags, tmp_path=tmp_path)
        assert result.returncode == 1, result.stdout
        assert "session/new failed: Authentication required (code -32000)" in result.stderr
    assert _run("replay", str(tmp_path / "missing.jsonl"), tmp_path=tmp_path).returncode == 2
