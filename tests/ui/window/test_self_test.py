"""`clawqt self-test` as packagers and CI run it: the real window on the demo agent, one prompt, a
screenshot, exit 0; a broken agent gives a non-zero exit and the reason."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage

from tests.paths import REPO
from tests.ui_harness import SCREENSHOTS


def _env(tmp_path) -> dict[str, str]:
    return {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "CLAWQT_DATA_DIR": str(tmp_path / "data"),
        "CLAWQT_LOG_DIR": str(tmp_path / "logs"),
        "CLAWQT_CONFIG": str(tmp_path / "none.json"),
        "PATH": "/usr/bin:/bin",
    }


def test_self_test_opens_the_window_runs_a_turn_and_saves_a_screenshot(tmp_path):
    shot = SCREENSHOTS / "00-self-test.png"
    result = subprocess.run(
        [sys.executable, "-m", "app", "--cwd", str(tmp_path), "self-test", "--screenshot", str(shot)],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=REPO,
        env=_env(tmp_path),
    )
    assert_self_test_passed(result, shot)
    # agents are told the console script beside this interpreter (a bundle tells its own executable)
    assert f"proposals: {os.path.join(os.path.dirname(sys.executable), 'clawqt')}\n" in result.stdout


def assert_self_test_passed(result: subprocess.CompletedProcess, shot) -> None:
    """Exit 0, the report with the demo agent's reply read from the window's accessibility tree, and a
    screenshot of a real window (many colours, not a blank or single-colour image)."""
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Binding loop" not in result.stderr, result.stderr[-3000:]  # QML evaluated each binding once
    assert "self-test ok" in result.stdout
    assert 'reply on screen: "That is the whole tour: a \u2026"' in result.stdout, result.stdout
    image = QImage(str(shot))
    assert image.width() >= 800 and image.height() >= 500
    assert (
        len({image.pixel(x, y) for x in range(0, image.width(), 37) for y in range(0, image.height(), 29)})
        > 10
    )


def test_self_test_fails_with_the_reason_when_the_agent_is_missing(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "app", "--agent", "no-such-agent-cmd", "self-test", "--timeout", "20"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=_env(tmp_path),
    )
    assert result.returncode != 0
    assert "self-test failed" in result.stderr and "no-such-agent-cmd" in result.stderr


@pytest.mark.parametrize("render_loop", ["basic", "threaded", "threaded-again"])
def test_sigterm_quits_cleanly_and_kills_the_agent_group(tmp_path, render_loop):
    """`kill <clawqt>` (or a logout) must not orphan the agent or its grandchildren, and must end under
    a threaded render loop a user asked for with QSG_RENDER_LOOP too (destroying its window hung a
    quit now and then: the process now ends without destroying it; two tries under that loop)."""
    import shlex
    import signal
    import time

    from tests.conftest import SCRIPTED_AGENT, process_alive

    pidfile = tmp_path / "grandchild.pid"
    agent = f"sh -c {shlex.quote(f'sleep 300 & echo $! > {pidfile}; exec {sys.executable} {SCRIPTED_AGENT}')}"
    app = subprocess.Popen(
        [sys.executable, "-m", "app", "--agent", agent, "--cwd", str(tmp_path)],
        cwd=REPO,
        env={**_env(tmp_path), "QSG_RENDER_LOOP": render_loop.split("-")[0]},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        log = tmp_path / "logs" / "clawqt.log"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if pidfile.exists() and log.exists() and "agent state ready" in log.read_text():
                break
            time.sleep(0.1)  # the poll's interval
        grandchild = int(pidfile.read_text())
        assert process_alive(grandchild)
        app.send_signal(signal.SIGTERM)
        try:
            code = app.wait(timeout=20)
        except subprocess.TimeoutExpired:  # a hang: its threads' stacks say where (faulthandler, SIGUSR1)
            app.send_signal(signal.SIGUSR1)
            time.sleep(1)  # time for the dump to be written before the kill
            app.kill()
            stacks = app.communicate()[1][-20000:].decode(errors="replace")
            pytest.fail(f"no exit 20 s after SIGTERM; stacks:\n{stacks}")
        if code != 0:  # what it printed, as text (pytest shortens a bytes message)
            pytest.fail(f"exit {code}; stderr:\n{app.communicate()[1][-20000:].decode(errors='replace')}")
        deadline = time.monotonic() + 30  # a ceiling only a hang reaches
        while process_alive(grandchild) and time.monotonic() < deadline:
            time.sleep(0.05)  # the poll's interval
        assert not process_alive(grandchild)
    finally:
        if app.poll() is None:
            app.kill()
