"""Conversation rules in the real window with the scripted agent: OpenClaw's working-directory prefix on
the user's text the agent sends back."""

from __future__ import annotations

from tests.conftest import scripted_agent_argv


def test_the_working_directory_prefix_of_an_echoed_prompt_is_not_shown(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "echo-cwd")
        await ui.until(lambda: not objects.session.busy)
        [row] = ui.rows(window, "user")
        text = ui.role(window, row, "text")
        assert text == "echo-cwd\n[Working directory: kept]\n\nend"  # only the leading prefix goes
        assert objects.session.timeline.items[row.item_ids[0]].echoed

    ui.run(scenario())
