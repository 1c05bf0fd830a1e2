"""The real window while OpenClaw's gateway dies mid-turn and comes back: the turn ends with OpenClaw's
interruption, and once the gateway answers again ClawQt restarts the stuck bridge by itself: the banner
says so while it runs, the notice bar says what happened, the chat on screen is open again with its
history and the user's draft, and a new chat is answered at once."""

from __future__ import annotations

import asyncio

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.restarts_the_gateway]


def test_the_window_restarts_the_stuck_bridge_by_itself_and_keeps_the_chat_and_the_draft(ui, openclaw, gate):
    async def scenario():
        window = await ui.open(openclaw.agent_argv(gate.url))
        objects = window.objects
        await ui.until(lambda: objects.session.sessionKey != "", 30)
        key = objects.session.sessionKey
        await ui.type_and_send(window, "please be slow")
        await ui.until(lambda: "slow-2" in str(objects.session.timeline.items), 30)
        openclaw.kill_now()
        gate.shut()  # refused from now on, as a dead gateway is
        restarting = asyncio.create_task(asyncio.to_thread(openclaw.restart))  # behind the shut gate
        await ui.until(lambda: not objects.session.busy, 60)  # the turn ended with the interruption
        composer = ui.item(window, "composerInput")
        composer.setProperty("text", "my draft, kept")
        await restarting
        # back where the old bridge's own retry is far off, as in the field after a longer outage
        await asyncio.to_thread(gate.reopen_in_a_long_gap)
        banner = ui.item(window, "agentBanner")
        await ui.until(lambda: banner.isVisible() and objects.agent.banner.get("recovering"), 60)
        assert "restarting it" in ui.item(window, "agentBannerText").property("text")
        assert not ui.item(window, "reconnectButton").isVisible()  # nothing for the user to do
        await ui.screenshots(window, "e2e-14-openclaw-bridge-restarting")
        await ui.until(lambda: not banner.isVisible(), 60)
        await ui.until(lambda: "restarted OpenClaw's bridge" in objects.notices.property("notice"), 30)
        await ui.until(lambda: objects.session.sessionKey == key and not objects.session.busy, 60)
        await ui.until(lambda: len(ui.rows(window, "user")) == 1, 60)  # the chat, reloaded with its history
        assert composer.property("text") == "my draft, kept"
        await ui.screenshots(window, "e2e-15-openclaw-bridge-restarted")
        objects.session.newChat()  # a new chat works at once (the interrupted one is OpenClaw's to settle)
        await ui.until(lambda: objects.session.sessionKey not in ("", key), 60)
        composer.setProperty("text", "")
        await ui.type_and_send(window, "Say hello please after the restart")
        await ui.until(lambda: "Hello from the fake model." in str(objects.session.timeline.items), 60)

    ui.run(scenario(), timeout=240)  # an outage of 17 s or more and a gateway start are part of it
