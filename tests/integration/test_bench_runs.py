"""The benchmarks keep working: `python -m bench --rounds 1 --quick` runs all of them (on small inputs),
prints one `NAME ratio=R goal=G` line each and writes the results file (the figures themselves are reported in
the issue notes from full runs, not asserted here: a noisy CI machine must not fail on them)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO


@pytest.mark.timeout(900)
def test_every_benchmark_runs_and_reports_a_ratio(tmp_path):
    results = tmp_path / "results.json"
    env = {**os.environ, "CLAWQT_BENCH_RESULTS": str(results)}
    run = subprocess.run(
        [sys.executable, "-m", "bench", "--rounds", "1", "--quick"],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=REPO,
        env=env,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    *lines, where = run.stdout.strip().splitlines()
    assert where == f"results: {results}"
    names = [re.match(r"^(\w+) \w+=[\d.]+ .*goal=[\d.]+", line).group(1) for line in lines]
    assert names == [
        "pipeline",
        "history_independence",
        "replay_load",
        "ui_stream_history",
        "ui_stream_paced",
        "memory",
        "ui_idle",
        "ui_startup",
        "ui_load",
        "ui_search",
        "terminal_stream",
        "hostile_render",
        "mcp_read",
        "terminal_panel_stream",
        "keystroke_echo",
        "proposal_roundtrip",
        "frozen_startup",
    ]
    data = json.loads(results.read_text())
    assert all(data[name]["ratio"] > 0 for name in names)


def test_a_run_writes_outside_the_tracked_tree_unless_asked_to_save(monkeypatch):
    from bench.__main__ import SAVED, results_path

    monkeypatch.delenv("CLAWQT_BENCH_RESULTS", raising=False)
    scratch = results_path(save=False)
    assert scratch != SAVED and results_path(save=True) == SAVED
    ignored = subprocess.run(["git", "check-ignore", "-q", str(scratch)], cwd=REPO)
    assert ignored.returncode == 0  # git ignores it: a run leaves no tracked file changed
    tracked = subprocess.run(
        ["git", "ls-files", "--error-unmatch", str(SAVED)], cwd=REPO, capture_output=True
    )
    assert tracked.returncode == 0
    monkeypatch.setenv("CLAWQT_BENCH_RESULTS", "/tmp/elsewhere.json")
    assert str(results_path(save=False)) == "/tmp/elsewhere.json" and results_path(save=True) == SAVED


def test_an_unknown_benchmark_name_is_a_clear_error():
    run = subprocess.run(
        [sys.executable, "-m", "bench", "nope"], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert run.returncode == 2 and "unknown benchmark" in run.stderr
