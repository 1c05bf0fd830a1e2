"""OpenClaw with no model configured: the turn ends with nothing said (the provider error never reaches
ACP); ClawQt says "the agent ended the turn without a reply" instead of showing nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.e2e.gateway import Gateway

pytestmark = pytest.mark.e2e


@pytest.fixture
def no_model(openclaw: Gateway) -> Iterator[Gateway]:
    """The worker's gateway with no model at all (its providers and default model taken out of its
    config, which it applies as it runs), and as it was afterwards."""
    original = json.loads(openclaw.config_path.read_text())
    config = json.loads(json.dumps(original))
    config.pop("models", None)
    config.get("agents", {}).get("defaults", {}).pop("model", None)
    config.get("agents", {}).get("defaults", {}).pop("mediaModels", None)
    openclaw.configure(config)
    yield openclaw
    openclaw.configure(original)


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
