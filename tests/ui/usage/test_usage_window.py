"""The usage ledger in the real window with a real agent: turns whose PromptResponse reports their tokens
(the scripted agent's `tokens`: 1,534 each) are charted in Settings' usage section under today, with the
agent's totals; a day's budget set there is kept in the config file and warned about as the next turn
passes it; the ledger survives a restart (it is the search database's, in the data folder)."""

from __future__ import annotations

import json

from PySide6.QtCore import Q_ARG, QMetaObject, QPointF

from app.main.host.build import Launch, build_host
from tests.conftest import scripted_agent_argv
from tests.ui.settings.test_settings_window import dialog_of, open_settings
from tests.ui.window.test_accessible_names import unnamed_controls


def test_turns_tokens_are_charted_by_day_and_agent_and_a_budget_is_warned_about(ui, isolated_dirs):
    config = isolated_dirs / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"agent": {"command": " ".join(scripted_agent_argv())}}))
    launch = Launch(agent=" ".join(scripted_agent_argv()), cwd=str(ui.tmp_path))

    async def scenario():
        host, _recorder = build_host(launch)
        window = await ui.open_host(host)
        objects = window.objects
        for _ in range(2):
            await ui.send_and_settle(window, "tokens")
        assert await host.search.written()
        await open_settings(ui, window)
        usage = objects.usage
        await ui.until(lambda: usage.property("today") == 2 * 1534)
        (agent,) = usage.property("agents")
        assert agent["agent"] == objects.agent.label and agent["words"] == "3.1k tokens in 2 turns"
        (chat,) = usage.property("chats")  # the chats that used most: this one
        assert (chat["key"], chat["agent"], chat["words"]) == (
            objects.session.sessionKey,
            objects.agent.label,
            "3.1k tokens in 2 turns \u00b7 context 62k of 200k (31 %)",
        )
        assert chat["title"] == "tokens"  # the index's title: its first message, until the agent names it
        days = usage.property("days")
        assert len(days) == 14 and days[-1]["tokens"] == 3068 and sum(d["tokens"] for d in days) == 3068
        chart = await ui.shown(window, "usageChart")
        QMetaObject.invokeMethod(
            dialog_of(window), "showSection", Q_ARG("QVariant", "Usage")
        )  # its name clicked
        await ui.until(lambda: chart.mapToScene(QPointF(0, 0)).y() < window.root.height() - chart.height())
        await ui.shown(window, "usageChat")
        await ui.frames(window, 3)
        await ui.screenshots(window, "147-settings-usage")
        assert unnamed_controls(window) == [], "the usage section"

        usage.setBudget(4000)  # what the field does: kept in the config file
        await ui.until(
            lambda: json.loads(config.read_text()).get("notifications", {}).get("dailyTokens") == 4000
        )
        assert objects.notices.notice == ""  # 77 % of it: not yet
        await ui.send_and_settle(window, "tokens")  # 4,602: past it
        await ui.until(lambda: "past your daily budget of 4,000" in objects.notices.notice)
        assert "Today's turns used 4,602 tokens" in objects.notices.notice
        await objects.shutdown()

        host, _recorder = build_host(launch)  # the next start: the ledger and the budget kept
        window = await ui.open_host(host)
        window.objects.usage.refresh()
        await ui.until(lambda: window.objects.usage.property("today") == 3 * 1534)
        assert window.objects.usage.property("budget") == 4000

    ui.run(scenario(), 90)
