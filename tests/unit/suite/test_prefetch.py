"""The background installs of a whole run (tests/prefetch.py) and the order the suite's tests go out in."""

from __future__ import annotations

import subprocess
import sys

from tests import prefetch
from tests.conftest import _stage, bundle_checked, process_group_gone
from tests.paths import REPO, TESTS
from tests.waits import until


def test_only_a_run_of_everything_prefetches():
    assert prefetch.covers_the_whole_suite([], REPO, filtered=False)
    assert prefetch.covers_the_whole_suite(["tests"], REPO, filtered=False)
    assert prefetch.covers_the_whole_suite(["."], REPO, filtered=False)
    assert prefetch.covers_the_whole_suite(["."], TESTS, filtered=False)
    assert not prefetch.covers_the_whole_suite(["tests/unit"], REPO, filtered=False)
    assert not prefetch.covers_the_whole_suite(
        ["tests", "tests/unit/suite/test_prefetch.py"], REPO, filtered=False
    )
    assert not prefetch.covers_the_whole_suite([], REPO, filtered=True)  # -k, -m, --lf, --collect-only


def test_a_failed_install_is_said_and_the_next_one_still_runs(capsys):
    failed = prefetch.install_all([("a broken one", "json", "loads"), ("a working one", "os", "getcwd")])
    said = capsys.readouterr().out
    assert failed == 1
    assert "prefetch: a broken one failed after" in said
    assert "prefetch: a working one ready after" in said


async def test_stopping_ends_the_installs_with_what_they_started():
    child = "import time; time.sleep(120)"
    parent = (
        f"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', {child!r}]); time.sleep(120)"
    )
    process = subprocess.Popen([sys.executable, "-c", parent], start_new_session=True)
    await until(lambda: len(_group(process.pid)) == 2, 30)  # the install started its own process
    prefetch.stop(process)
    assert process.returncode is not None
    await until(lambda: process_group_gone(process.pid), 30)  # the orphaned child is reaped


def _group(pgid: int) -> list[str]:
    listed = subprocess.run(["ps", "-o", "pid=", "-g", str(pgid)], capture_output=True, text=True).stdout
    return listed.split()


def test_the_tests_go_out_unit_first_then_openclaw_then_the_rest_and_the_bundle_last(request):
    stages = [_stage(item) for item in request.session.items]
    assert stages == sorted(stages)
    config = request.config
    if prefetch.covers_the_whole_suite(config.args, config.invocation_params.dir, filtered=False):
        assert set(stages) == {0, 1, 2, 3}
        bundle_users = [i for i in request.session.items if _stage(i) == 3]
        assert any("frozen_startup" in item.nodeid for item in bundle_users)
        asked = bundle_checked(config)
        assert all(asked != any(m.name == "skip" for m in item.iter_markers()) for item in bundle_users)


def test_the_tests_that_restart_a_gateway_are_one_group_and_every_other_test_goes_out_alone(request):
    items = request.session.items
    groups = {item.nodeid: [m.args[0] for m in item.iter_markers("xdist_group")] for item in items}
    restarting = {item.nodeid for item in items if item.get_closest_marker("restarts_the_gateway")}
    assert all(groups[nodeid] == ["openclaw-gateway-restarts"] for nodeid in restarting)
    assert not any(groups[nodeid] for nodeid in groups.keys() - restarting)
    config = request.config
    if prefetch.covers_the_whole_suite(config.args, config.invocation_params.dir, filtered=False):
        assert len(restarting) == 2  # the headless and the window recovery tests
