"""Tool cards in the real window with the scripted agent: a group stays open until its turn ends, content
that arrives item by item, and the agent's error on the card."""

from __future__ import annotations

import asyncio

from tests.conftest import scripted_agent_argv
from tests.ui_harness import find_all, plain_text


def test_a_tool_group_stays_open_until_its_turn_ends_then_collapses(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "tool-group-wait 2.5")
        await ui.until(lambda: ui.rows(window, "tool-group"))
        [group] = ui.rows(window, "tool-group")
        await ui.until(lambda: ui.role(window, group, "summary")["finished"])
        await asyncio.sleep(1.6)  # longer than the collapse delay: both tools long finished
        assert objects.session.busy
        assert ui.role(window, group, "expanded") is True
        await ui.until(lambda: not objects.session.busy)
        [group] = ui.rows(window, "tool-group")
        await ui.until(lambda: ui.role(window, group, "expanded") is False, 5)
        words = await ui.shown(window, "toolGroupToggle")
        assert words.property("text") == "Read 2 files"  # what the group did, in words
        assert ui.item(window, "toolGroupCount").property("text") == "2 tools"
        await ui.screenshots(window, "90-tool-group-in-words")

    ui.run(scenario())


def test_tool_content_chunks_and_the_agents_error_show_on_the_card(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "tool-chunks")
        await ui.until(lambda: not objects.session.busy)
        card = ui.tool_payload(window, "tool:t-chunks")
        assert card["status"] == "failed" and card["error"] == "Rate limited by the docs server"
        assert "first page\n\nsecond page" in card["output"]
        assert "Unsupported ACP tool content chunk" in card["output"]

        def errors():
            return [
                e.property("text") for e in find_all(window.root.contentItem(), "toolError") if e.isVisible()
            ]

        await ui.until(lambda: errors() == ["Rate limited by the docs server"])  # shown also when collapsed

    ui.run(scenario())


def test_a_tools_input_reads_as_fields_and_its_markdown_output_is_rendered_a_files_text_as_written(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "tool-details")
        await ui.until(lambda: not window.objects.session.busy)
        for tool_id in ("tool:t-fetch", "tool:t-read"):
            if not ui.tool_payload(window, tool_id)["expanded"]:
                ui.toggle_tool(window, tool_id, False)  # opened, as a click on its chevron
        lines = await ui.shown(window, "toolInputLines")
        shown = [item for item in find_all(window.root.contentItem(), "toolInputLines") if item.isVisible()]
        fetched = 'url: https://docs.example/api\nformat: markdown\nheaders: {"Accept": "text/markdown"}'
        assert lines is not None and sorted(item.property("text") for item in shown) == [
            "path: setup.py",
            fetched,
        ]
        rendered = await ui.shown(window, "toolOutputRendered")
        plain = plain_text(rendered)
        assert "client.hello()" in plain and "```" not in plain and "**" not in plain  # drawn, not printed
        written = [i for i in find_all(window.root.contentItem(), "toolOutput") if i.isVisible()]
        assert [i.property("text") for i in written] == ["# not a heading\nx = 1"]
        await ui.screenshots(window, "91-tool-details")

    ui.run(scenario())
