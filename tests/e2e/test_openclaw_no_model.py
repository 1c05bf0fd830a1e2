"""OpenClaw with no model configured: the turn ends with nothing said (the provider error never reaches
ACP); ClawQt says "the agent ended the turn without a reply" instead of showing nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.gateway import Gateway, gateway_config, running_gateway

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bare_gateway(openclaw_env, tmp_path_factory) -> Iterator[Gateway]:
    with running_gateway(
        openclaw_env, tmp_path_factory.mktemp("openclaw-no-model"), gateway_config(None)
    ) as gw:
        yield gw


@pytest.fixture
def no_model(bare_gateway, monkeypatch) -> Gateway:
    for name, value in bare_gateway.process_env().items():
        monkeypatch.setenv(name, value)
    return bare_gateway


def test_a_turn_with_no_model_says_the_agent_ended_without_a_reply(ui, no_model):
    async def scenario():
        window = await ui.open(no_model.agent_argv())
        objects = window.objects
        ended: list[str] = []
        objects.turn.turnEnded.connect(ended.append)
        await ui.type_and_send(window, "Is anybody there?")
        await ui.until(lambda: ended, 90)
        assert ended == ["end_turn"]
        assert ui.kinds(window) == ["user"]  # nothing from the agent...
        notice = ui.item(window, "noReplyNotice")
        await ui.until(lambda: notice.property("visible"))  # ...and the app says so
        await ui.screenshot(window, "e2e-03-no-model")

    ui.run(scenario(), timeout=150)
