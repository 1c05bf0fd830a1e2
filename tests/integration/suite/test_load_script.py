"""The load script (tests/load.py) that finds the tests which fail only on a busy machine: the command
runs beside a spinning process per core asked for, its exit status is the script's, and nothing it
started outlives it."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import process_alive
from tests.paths import REPO


def _load(*command: str, cores: int = 1) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.load", "--cores", str(cores), "--", *command],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_command_runs_beside_the_busy_cores_and_its_exit_status_is_kept():
    # the command lists its siblings (the load script's other children: the spinners) and their state
    listing = 'ps -o pid=,stat= --ppid $PPID | grep -v "^ *$$ "'
    run = _load("sh", "-c", f"{listing}; exit 3", cores=2)
    assert run.returncode == 3, run.stderr
    siblings = [line.split() for line in run.stdout.splitlines() if line.strip()]
    spinners = [int(pid) for pid, _state in siblings]
    assert len(spinners) >= 2, run.stdout  # one per core asked for
    assert "[load] 2 busy core(s)" in run.stderr
    assert not [pid for pid in spinners if process_alive(pid)], "a spinner outlived the command"


def test_no_command_is_a_usage_error():
    run = _load()
    assert run.returncode == 2 and "give the command to run after --" in run.stderr
