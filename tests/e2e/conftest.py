"""E2E fixtures: the pinned OpenClaw (installed by the suite, cached), the fake model, and one real
gateway shared by the e2e tests (it takes ~1.1 GB and ~10 s to start), stopped when they are done so its
own work (heartbeats, exec completions) never runs under the timing-sensitive tests after them; a test
that kills it starts it again on the same port before it ends."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from tests.e2e.fake_model import FakeModel
from tests.e2e.gate import Gate
from tests.e2e.gateway import Gateway, gateway_config, running_gateway
from tests.e2e.openclaw_env import OpenClawEnv, OpenClawSetupError, ensure_openclaw
from tests.e2e.shared_clawqt import Attached, SharedService
from tests.ui_harness import ui  # noqa: F401 - the real window for the window e2e tests

# every exec asks the user first (tools.exec.mode "ask"); as root OpenClaw offers allow-once / deny only
EXEC_APPROVALS: dict = {"tools.exec.mode": "ask"}
# No periodic heartbeat: any heartbeat run (its 30-minute tick falls anywhere in a run of the suite)
# holds the next exec-completion follow-up until that run's start + the interval, long after the test
# waiting for it; with the interval 0 the follow-up comes (30 s at most after an earlier run). Wakes asked
# for (`wake now`) still run.
NO_PERIODIC_HEARTBEAT: dict = {"agents.defaults.heartbeat.every": "0m"}
# exec moves a command to the background after this (OpenClaw's default: 10 s) unless the call asks for
# another wait: a test showing that the wait ClawQt's hidden context asks for holds waits past it
EXEC_DEFAULT_YIELD_S = 3
EXEC_YIELD: dict = {"tools.exec.backgroundMs": EXEC_DEFAULT_YIELD_S * 1000}
# OpenClaw's own agents: `main` (the default, every other test's) and `work` ("Work"), in the config the
# gateway starts with (a new roster restarts a running gateway); explicit ownership is what OpenClaw asks
# of a roster of several agents
TWO_AGENTS: dict = {
    "agents.entries": {"main": {}, "work": {"identity": {"name": "Work"}}},
    "agents.ownership": "explicit",
}


def image_provider(fake_model: FakeModel) -> dict:
    """OpenClaw's image tool drawing through LiteLLM's OpenAI-compatible endpoint, which the fake model
    server answers (set at start: adding a provider plugin to a running gateway restarts it)."""
    return {
        "models.providers.litellm": {"baseUrl": fake_model.base_url, "apiKey": "x", "models": []},
        "agents.defaults.mediaModels": {"image": {"primary": "litellm/gpt-image-2"}},
    }


@pytest.fixture(scope="session")
def openclaw_env() -> OpenClawEnv:
    try:
        return ensure_openclaw()
    except OpenClawSetupError as exc:
        pytest.fail(f"OpenClaw test environment unavailable: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def fake_model() -> Iterator[FakeModel]:
    model = FakeModel().start()
    yield model
    model.stop()


@pytest.fixture(scope="package")  # ended after the last e2e test: a 1 GB gateway doing its own timers
def gateway(
    openclaw_env, fake_model, tmp_path_factory
) -> Iterator[Gateway]:  # must not run under later tests
    config = gateway_config(
        fake_model.base_url,
        {**EXEC_APPROVALS, **EXEC_YIELD, **NO_PERIODIC_HEARTBEAT, **TWO_AGENTS, **image_provider(fake_model)},
    )
    with running_gateway(openclaw_env, tmp_path_factory.mktemp("openclaw-state"), config) as gw:
        yield gw


@pytest.fixture
def openclaw(gateway, monkeypatch) -> Gateway:
    """The gateway, with this test's environment set so the spawned bridge shares its state dir."""
    for name, value in gateway.process_env().items():
        monkeypatch.setenv(name, value)
    return gateway


@pytest.fixture
def gate(openclaw) -> Iterator[Gate]:
    """A gate in front of the gateway (tests/e2e/gate.py): the outage ends where the test says."""
    gate = Gate(openclaw.port).open()
    yield gate
    gate.shut()


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def shared_services(gateway, tmp_path_factory) -> AsyncIterator[tuple[SharedService, SharedService]]:
    """The worker's two long-lived ClawQt services (tests/e2e/shared_clawqt.py), each started by the
    first test that asks for it, quit after the last e2e test."""
    home = tmp_path_factory.mktemp("shared-clawqt")
    pair = (SharedService(gateway, home, "first"), SharedService(gateway, home, "second"))
    yield pair
    for shared in pair:
        await shared.close()


@pytest_asyncio.fixture(loop_scope="package")
async def clawqt(shared_services, openclaw) -> AsyncIterator[Attached]:
    """The shared ClawQt the test's turns run on (a test using it runs in the package's event loop:
    `@SHARED`, where the services live)."""
    attached = Attached(await shared_services[0].ready())
    yield attached
    attached.detach()


@pytest_asyncio.fixture(loop_scope="package")
async def fresh_clawqt(shared_services, openclaw) -> AsyncIterator[Attached]:
    """A second shared ClawQt, which never saw the sessions the test made on `clawqt`: a reload on it
    is a reload after a restart of ClawQt."""
    attached = Attached(await shared_services[1].ready())
    yield attached
    attached.detach()
