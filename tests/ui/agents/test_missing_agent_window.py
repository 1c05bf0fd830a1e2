"""An agent that is not installed is told once, in a callout at the top of the chat, with a real next step:
use the built-in demo agent (one click: a chat with it, and the callout goes once it is ready), choose
another agent, open its settings, or try again; a plain-words title says what happened; the failure's
details stay behind "Show details"."""

from __future__ import annotations

from app.main.agents.profiles import AgentProfile
from app.main.host.make import make_host
from tests.conftest import demo_agent_argv
from tests.ui.agents.test_agents_window import hub_of
from tests.ui.settings.test_settings_window import dialog_of
from tests.ui.terminals.panel_support import mouse_click


def test_a_missing_agent_offers_the_demo_agent_and_the_failure_goes_once_one_is_ready(ui):
    async def scenario():
        hub = hub_of(
            ui.tmp_path,
            AgentProfile("missing", "Claude", ("claude-agent-acp-not-installed",), "config", "test"),
            AgentProfile("demo", "Demo agent", demo_agent_argv(), "demo", "test"),
        )
        window = await ui.open_host(make_host(hub, data_dir=ui.tmp_path / "data"), start=False)
        objects = window.objects
        objects.start()  # no chat opens: its agent is not there
        banner = await ui.shown(window, "agentBanner")
        assert "was not found" in ui.item(window, "agentBannerText").property("text")
        title = ui.item(window, "agentBannerTitle")
        assert title.property("text") == "Claude is not installed"  # in plain words
        use_demo = await ui.shown(window, "useDemoAgentButton")
        assert use_demo.property("highlighted")  # the next step most people want
        assert ui.item(window, "chooseAnotherAgentButton").isVisible()
        assert ui.item(window, "reconnectButton").property("text") == "Try again"  # not "Reconnect"
        await ui.until(lambda: window.objects.notices.notice != "")  # the chat could not open ...
        await ui.frames(window, 2)
        assert not ui.item(window, "noticeBar").isVisible()  # ... and is told once, in the callout
        await ui.screenshots(window, "66-agent-missing")
        await mouse_click(ui, window, "agentSettingsButton")  # where its command is set
        settings = dialog_of(window)
        await ui.until(lambda: settings.property("opened"))
        await ui.until(lambda: settings.property("currentSection") == 4)  # at its Agents
        settings.close()
        use_demo.clicked.emit()
        await ui.until(lambda: objects.agent.state == "ready", 30)
        await ui.until(lambda: not banner.isVisible())  # the failure is behind
        assert hub.agent_of(objects.session.sessionKey) == "demo"

    ui.run(scenario())
