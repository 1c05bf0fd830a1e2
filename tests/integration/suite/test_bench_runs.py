"""The benchmarks keep working: `python -m bench NAME --rounds 1 --quick` runs each of them (on small
inputs), prints its `NAME ratio=R goal=G` line and writes the results file (the figures themselves are
reported in the issue notes from full runs, not asserted here: a noisy CI machine must not fail on them)."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import signal
import subprocess
import sys

import pytest

from tests.paths import REPO

EXPECTED = (
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
    "credential_streams",
    "mcp_read",
    "terminal_panel_stream",
    "keystroke_echo",
    "proposal_roundtrip",
    "frozen_startup",
    "loop_stalls",
    "trace_open",
    "ui_frames",
    "turn_snapshots",
    "search_index",
)
HANG_AFTER_S = 300  # a benchmark stuck this long prints its stacks and exits (the failure shows where)
QUICK_RUN = ("--rounds", "1", "--quick", "--hang-after", str(HANG_AFTER_S))


def test_every_benchmark_module_is_run_by_default():
    from bench.__main__ import BENCHMARKS

    modules = {p.stem for p in (REPO / "bench").glob("*.py")} - {"__init__", "__main__"}
    helpers = {name for name in modules if not hasattr(importlib.import_module(f"bench.{name}"), "run")}
    assert BENCHMARKS == EXPECTED and set(BENCHMARKS) == modules - helpers


@pytest.fixture
def built(request, name: str) -> None:
    """What a benchmark measures that the suite builds once: the bundle (`frozen_startup`)."""
    if name == "frozen_startup":
        request.getfixturevalue("bundle")


@pytest.mark.timeout(HANG_AFTER_S + 120)
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.frozen) if n == "frozen_startup" else n for n in EXPECTED]
)
def test_each_benchmark_runs_and_reports_a_ratio(name, built, tmp_path):
    """One process per benchmark: a hang or a failure names the benchmark, and the suite's two workers
    share them out."""
    results = tmp_path / "results.json"
    env = {**os.environ, "CLAWQT_BENCH_RESULTS": str(results)}
    out, err = tmp_path / "stdout.txt", tmp_path / "stderr.txt"
    # Output goes to files, not pipes: a process the benchmark left behind (a shell, an agent) holding
    # a pipe open would keep the test reading after the benchmark ended. Its own process group, ended
    # afterwards, takes such leftovers with it.
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "bench", name, *QUICK_RUN],
            stdout=stdout,
            stderr=stderr,
            cwd=REPO,
            env=env,
            start_new_session=True,
        )
        try:
            code = process.wait(timeout=HANG_AFTER_S + 60)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # what it left behind (all of it on a timeout)
            process.wait()
    printed, problems = out.read_text(), err.read_text()
    assert code == 0, printed[-2000:] + problems[-6000:]
    line, where = printed.strip().splitlines()
    assert where == f"results: {results}"
    assert re.match(rf"^{name} \w+=[\d.]+ .*goal=[\d.]+", line), line
    data = json.loads(results.read_text())
    assert data[name]["ratio"] > 0 and data[name]["goal"] > 0


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
