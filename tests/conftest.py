"""Shared fixtures: an isolated data/log/config dir per test, and real agent services that are always
shut down (process groups killed) at teardown, even when the test fails."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.contract.envelopes import Envelope
from app.main.agents.command import AgentCommand
from app.main.sessions.service import ChatService
from app.packaging.build import BuildResult
from tests import prefetch, screenshot_sheet
from tests.paths import SCREENSHOTS, TESTS
from tests.task_errors import NeverRetrieved, collect_what_the_test_left
from tests.waits import until

SCRIPTED_AGENT = TESTS / "agents" / "scripted_agent.py"
_PREFETCH = pytest.StashKey[subprocess.Popen]()  # the background installs of a whole run

# every shell ClawQt starts as "the user's shell" is bash without the user's rc files (tests/shell/bash)
os.environ["SHELL"] = str(TESTS / "shell" / "bash")

# the ACP registry is never fetched from the internet by a test: a closed loopback port refuses at once
# (the registry's own tests serve one on a real loopback server)
os.environ["CLAWQT_REGISTRY_URL"] = "http://127.0.0.1:9/registry.json"

# a private D-Bus session bus with a notification service on it (tests/desktop)
pytest_plugins = ["tests.desktop.session_bus"]


def _is_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput")  # the xdist controller or a run without workers


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist the work goes out in the order of `_stage` (xdist would send the biggest
    groups first, the OpenClaw tests, which then wait for OpenClaw's install)."""
    if _is_controller(config) and hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_sessionstart(session: pytest.Session) -> None:
    """A run of the whole suite installs what its tests need (tests/prefetch.py) in the background."""
    config = session.config
    option = config.option
    filtered = bool(option.keyword or option.markexpr or option.collectonly or getattr(option, "lf", False))
    if (
        _is_controller(config)
        and os.environ.get("CLAWQT_TEST_PREFETCH", "1") != "0"
        and prefetch.covers_the_whole_suite(config.args, config.invocation_params.dir, filtered)
    ):
        config.stash[_PREFETCH] = prefetch.start_in_background()


def pytest_sessionfinish(session: pytest.Session) -> None:
    process = session.config.stash.get(_PREFETCH, None)
    if process is not None:
        prefetch.stop(process)
    if _is_controller(session.config):  # after every worker saved its screenshots
        screenshot_sheet.make_sheet(SCREENSHOTS)


def _stage(item: pytest.Item) -> int:
    """Quick tests first while tests/prefetch.py installs OpenClaw, then the OpenClaw tests (one at a
    time to whichever worker is free), then the rest, the bundle's tests last (run only when asked)."""
    if item.path.is_relative_to(TESTS / "unit"):
        return 0
    if item.path.is_relative_to(TESTS / "e2e"):
        return 1
    if item.get_closest_marker("frozen") is not None:
        return 3
    return 2


# the bundle's own check: build it and run it as a packager ships it (README, "Building the app")
BUNDLE_CHECK = ".venv/bin/python -m pytest -m frozen"


def bundle_checked(config: pytest.Config) -> bool:
    """The bundle's tests build it with PyInstaller (the costliest install of a run, on a fresh clone) and
    run what it built: the packaging check, run when asked (`-m frozen`, or CLAWQT_TEST_BUNDLE=1), not by
    every run of the suite, which checks what the bundle carries by its rules (tests/unit)."""
    return "frozen" in (config.option.markexpr or "") or os.environ.get("CLAWQT_TEST_BUNDLE") == "1"


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups into the node ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (the README's command: two workers, `--dist loadgroup`, which hands out one
    test, or one group, at a time in this order to whichever worker has fewer than three left) the
    OpenClaw tests come one after another to both workers: each worker's run of them shares the gateway
    it starts (package scope), and the workers even out as they go, where two fixed halves by file kept
    one worker busy long after the other. The tests that kill and restart their gateway are one group,
    run one after another on one worker: two gateway restarts at once starved each other."""
    items.sort(key=_stage)  # stable: files and tests keep their order within a stage
    unasked = not bundle_checked(config)
    for item in items:
        if unasked and item.get_closest_marker("frozen") is not None:
            item.add_marker(pytest.mark.skip(reason=f"builds and runs the bundle: `{BUNDLE_CHECK}`"))
        if item.get_closest_marker("restarts_the_gateway") is not None:
            item.add_marker(pytest.mark.xdist_group("openclaw-gateway-restarts"))
        installs = "openclaw_env" in getattr(item, "fixturenames", ())
        if installs or item.get_closest_marker("real_agents") is not None:
            _time_the_body_only(item)


def _time_the_body_only(item: pytest.Item) -> None:
    """Whichever test needing a real agent runs first installs it into .cache/ (OpenClaw with Node 24,
    fast-agent, the SDKs' example agents: a minute or more on a fresh machine) and, for OpenClaw, starts
    the shared gateway; under pytest-xdist the first is not always the first collected. Those steps have
    timeouts of their own, so a test's own timeout counts only its body: a slow download is not read as
    a hung test."""
    marker = item.get_closest_marker("timeout")
    own = marker.args[0] if marker is not None and marker.args else item.config.getini("timeout")
    item.add_marker(pytest.mark.timeout(float(own or 120), func_only=True))


def pytest_collection_finish(session: pytest.Session) -> None:
    """A worker whose groups did not reach the node ids would spread a group over both workers without a
    word: pytest 9.2 made xdist 3.8's renaming a no-op."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    lost = [
        item.nodeid
        for item in session.items
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid
    ]
    if lost:
        raise pytest.UsageError(
            f"pytest-xdist did not group {len(lost)} tests (e.g. {lost[0]}): this pytest and pytest-xdist "
            "do not work together; install the versions pyproject.toml names"
        )


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data, log and config locations (never the user's)."""
    home = tmp_path / "clawqt-home"
    monkeypatch.setenv("CLAWQT_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("CLAWQT_LOG_DIR", str(home / "logs"))
    monkeypatch.setenv("CLAWQT_CONFIG", str(home / "config.json"))
    # the keyring: a real backend writing a file this test owns, never the user's keyring (also for
    # processes the test starts)
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg-data"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    import keyring
    from keyrings.alt.file import PlaintextKeyring

    keyring.set_keyring(PlaintextKeyring())
    return home


class EnvelopeLog:
    """Collects envelopes; `wait_for` polls the event loop until a predicate holds."""

    def __init__(self) -> None:
        self.items: list[Envelope] = []

    def __call__(self, envelope: Envelope) -> None:
        self.items.append(envelope)

    def of_kind(self, kind: str) -> list[Any]:
        return [e for e in self.items if e.kind == kind]

    def updates(self, update_kind: str | None = None) -> list[Any]:
        found = self.of_kind("session_update")
        if update_kind is None:
            return found
        return [e for e in found if e.notification["update"].get("sessionUpdate") == update_kind]

    def text(self, session_key: str | None = None) -> str:
        """Concatenated agent_message_chunk text (what a user would read)."""
        parts = []
        for e in self.updates("agent_message_chunk"):
            if session_key is None or e.session_key == session_key:
                content = e.notification["update"].get("content") or {}
                parts.append(content.get("text", ""))
        return "".join(parts)

    async def wait_for(self, predicate: Callable[[EnvelopeLog], Any], timeout: float = 10.0) -> Any:
        """The first true value of `predicate(self)`; a failure names the last envelopes' kinds."""
        return await until(lambda: predicate(self), timeout, seen=lambda: [e.kind for e in self.items[-10:]])


def process_alive(pid: int) -> bool:
    """True while `pid` runs (a zombie, already dead but not yet reaped, counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def process_group_gone(pgid: int) -> bool:
    """True once no process of the group `pgid` is left (an agent's whole tree ended)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def scripted_agent_argv(*flags: str) -> tuple[str, ...]:
    """The scripted test agent (tests/agents/scripted_agent.py) with behaviour flags."""
    return (sys.executable, str(SCRIPTED_AGENT), *flags)


def demo_agent_argv() -> tuple[str, ...]:
    return (sys.executable, "-m", "app", "demo-agent")


@pytest.fixture
async def make_service(tmp_path: Path) -> AsyncIterator[Callable[..., tuple[ChatService, EnvelopeLog]]]:
    """`make_service(argv, **kwargs)` -> (service, envelope log); every service is shut down after."""
    services: list[ChatService] = []

    def factory(argv: tuple[str, ...], **kwargs: Any) -> tuple[ChatService, EnvelopeLog]:
        kwargs.setdefault("cwd", str(tmp_path))
        kwargs.setdefault("log_path", tmp_path / "agent-stderr.log")
        service = ChatService(AgentCommand(tuple(argv), "flag", "test"), **kwargs)
        envelopes = EnvelopeLog()
        service.subscribe(envelopes)
        services.append(service)
        return service, envelopes

    yield factory
    for service in services:
        await service.shutdown()


@pytest.fixture
def model_checks(qapp):
    """Qt's QAbstractItemModelTester on the models a test watches; any report fails the test."""
    from tests.model_checks import ModelChecks

    checks = ModelChecks()
    yield checks
    checks.close()
    checks.assert_clean()


@pytest.fixture(autouse=True)
def no_unretrieved_task_error() -> Any:
    """Every test fails if an asyncio task or future ended with an exception nobody retrieved (the
    report comes when the task is collected: collected here before the test ends)."""
    watcher = NeverRetrieved()
    logger = logging.getLogger("asyncio")
    logger.addHandler(watcher)
    yield watcher
    collect_what_the_test_left()
    logger.removeHandler(watcher)
    assert not watcher.seen, "asyncio: " + "; ".join(watcher.seen)


@pytest.fixture(scope="session")
def bundle() -> BuildResult:
    """The bundle built once per state of the sources into .cache/frozen/ (reused afterwards) by the same
    code as `python -m app.packaging`."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the suite builds and checks the Linux bundle (other systems: packaging.md)")
    from app.packaging.cached import ensure_bundle

    try:
        return ensure_bundle()
    except RuntimeError as error:
        pytest.fail(f"the bundle could not be built: {error}", pytrace=False)
