"""The message queue with an agent ClawQt did not write: fast-agent (a real subprocess, its `slow` model
waits 3 s before it echoes). A message sent while its turn runs is queued and goes out when that turn
ends; "Send now" on a later one stops fast-agent's turn and sends it next."""

from __future__ import annotations

import pytest

from tests.fast_agent_support import ensure_fast_agent, fast_agent_args
from tests.real_agents_support import installed_or_fail
from tests.ui_harness import user_texts

pytestmark = pytest.mark.real_agents


def test_fast_agent_gets_the_queued_messages_one_by_one_and_send_now_stops_its_turn(ui, tmp_path):
    agent = installed_or_fail("fast-agent", ensure_fast_agent)
    argv = agent.argv + fast_agent_args(tmp_path / "fast-agent-home", "slow", shell=False)

    async def scenario():
        window = await ui.open(argv, start=False)
        objects = window.objects
        objects.start()  # fast-agent takes its time to start on a busy machine
        await ui.until(
            lambda: objects.session.sessionKey,
            90,
            seen=lambda: (
                objects.agent.state,
                objects.agent.message,
                objects.session.opening,
                (ui.tmp_path / "agent-stderr.log").read_text()[-1500:]
                if (ui.tmp_path / "agent-stderr.log").exists()
                else "",
            ),
        )
        await ui.type_and_send(window, "first, take your time")
        await ui.until(lambda: objects.session.busy)
        await ui.type_and_send(window, "second, after the first")
        await ui.until(lambda: objects.queue.texts() == ["second, after the first"])
        assert user_texts(objects) == ["first, take your time"]  # fast-agent is still on the first
        # the first turn ends by itself (3 s): the queued message goes out, and fast-agent echoes it
        await ui.until(lambda: user_texts(objects)[-1:] == ["second, after the first"], 30)
        assert objects.queue.count == 0 and objects.session.busy
        await ui.type_and_send(window, "third, now please")
        await ui.until(lambda: objects.queue.count == 1)
        [queued] = objects.queue.model.entries
        objects.turn.sendQueuedNow(queued["id"])  # stops the second turn, sends the third
        await ui.until(lambda: user_texts(objects)[-1:] == ["third, now please"], 30)
        await ui.until(lambda: not objects.session.busy, 30)
        assert user_texts(objects) == [
            "first, take your time",
            "second, after the first",
            "third, now please",
        ]
        rows = ui.kinds(window)
        assert rows.count("turn-footer") == 3

    ui.run(scenario(), timeout=200)
