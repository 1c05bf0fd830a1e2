"""The entry points as a user runs them: `clawqt smoke` on the embedded demo agent (what the README's
first command does until the window lands), `--record`, `--agent`, a command that does not exist, and
`clawqt replay`'s exit status."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import scripted_agent_argv
from tests.paths import REPO, TESTS

DEMO_TRACE = TESTS / "fixtures" / "demo-session.trace.jsonl"


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


def test_a_corrupt_config_does_not_keep_the_window_from_opening_with_agent(tmp_path):
    """The window opens on the --agent command, runs a turn, and says what is wrong with the config."""
    config = tmp_path / "config.json"
    config.write_text('{\n "agent": {"command": "x"},\n oops\n}')
    shot = tmp_path / "shot.png"
    agent = " ".join(scripted_agent_argv())
    args = ("--agent", agent, "--cwd", str(tmp_path), "self-test", "--screenshot", str(shot))
    result = _run(*args, "--timeout", "60", tmp_path=tmp_path, extra_env={"QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert "self-test ok" in result.stdout and shot.exists()
    assert f"Your config file {config} is not valid JSON (line 3)" in result.stderr
    assert "Traceback" not in result.stderr
    assert config.read_text() == '{\n "agent": {"command": "x"},\n oops\n}'


def test_smoke_says_what_is_wrong_with_the_config_and_runs_the_default_agent(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"agent": {"command": ""}}))
    result = _run("smoke", "/echo still here", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "still here" in result.stdout
    assert f'"agent.command" in your config file {tmp_path / "config.json"} is ignored: it is empty.' in (
        result.stderr
    )


def test_a_data_folder_that_is_a_file_does_not_crash_the_window(tmp_path):
    (tmp_path / "data").write_text("a file where the data folder belongs")
    shot = tmp_path / "shot.png"
    agent = " ".join(scripted_agent_argv())
    args = ("--agent", agent, "--cwd", str(tmp_path), "self-test", "--screenshot", str(shot))
    result = _run(*args, "--timeout", "60", tmp_path=tmp_path, extra_env={"QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"Your data folder {tmp_path / 'data'} is a file, not a folder" in result.stderr
    assert "Traceback" not in result.stderr


def test_smoke_builds_the_whole_main_side_the_window_gets_and_says_what_is_wrong_with_a_store(tmp_path):
    """The smoke command runs on the host the window gets (`build_host`), so a corrupt local store is
    said here too (set aside, never fatal), and the prompt still goes through."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "drafts.json").write_text('{"s1": "a draft",\n oops}')
    result = _run("smoke", "/echo still here", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "still here" in result.stdout
    assert "warning:" in result.stderr and "drafts" in result.stderr, result.stderr
