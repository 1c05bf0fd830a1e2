"""OpenClaw's own image tool against the real gateway: the fake model calls `image_generate` (through
Tool Search, the gateway's default surface), the gateway's image provider (LiteLLM's OpenAI-compatible
endpoint, answered by the fake model server with a 120 x 80 PNG) draws, and in a chat session the tool
runs in the background: its completion is a turn OpenClaw neither streams nor replays over ACP. ClawQt
reads it from the Gateway transcript and shows the picture inline in the turn that asked for it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from app.renderer.timeline.parts import ImagePart
from tests.e2e.shared_clawqt import SHARED, reloaded_with_supplement, supplemented
from tests.ui.terminals.panel_support import mouse_click

pytestmark = pytest.mark.e2e

PNG = b"\x89PNG\r\n\x1a\n"


def inline_images(timeline) -> list[list[str]]:
    """The inline images of every assistant turn, per turn."""
    return [
        [
            part.uri
            for item_id in group.item_ids
            for part in getattr(timeline.items[item_id], "parts", ())
            if isinstance(part, ImagePart)
        ]
        for group in timeline.grouping.groups
        if group.kind != "user"
    ]


def local_file(uri: str) -> Path:
    assert uri.startswith("file://"), uri
    return Path(unquote(urlsplit(uri).path))


@SHARED
async def test_a_background_image_generation_shows_inline_in_the_turn_that_asked_live_and_after_reload(
    clawqt, fresh_clawqt, fake_model
):
    asked = len(fake_model.image_requests)
    envelopes = clawqt.envelopes
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    assert (await pipeline.prompt(key, "Say hello please")).stop_reason == "end_turn"
    result = await pipeline.prompt(key, "please draw a red square")
    assert result.stop_reason == "end_turn"
    assert "I started drawing it." in envelopes.text(key)  # the tool only started the task
    await envelopes.wait_for(supplemented(key), timeout=60)
    assert len(fake_model.image_requests) == asked + 1  # the gateway's provider drew once
    images = inline_images(timeline)
    assert [len(turn) for turn in images] == [0, 1], images
    picture = local_file(images[1][0])
    assert picture.read_bytes().startswith(PNG)
    assert all(not group_cards for group_cards in _cards(timeline))  # inline, never a card

    reloaded = await reloaded_with_supplement(fresh_clawqt, key)
    assert inline_images(reloaded) == [[], [images[1][0]]]


def _cards(timeline) -> list[list[str]]:
    from app.renderer.timeline.turn_view import group_attachments

    return [
        [a.uri for a in group_attachments(timeline.items, g) if a.source == "media-transcript"]
        for g in timeline.grouping.groups
        if g.kind != "user"
    ]


def test_the_picture_shows_in_the_window_in_the_turn_that_asked_for_it(ui, openclaw):
    """In the real window: the reply says the drawing started; when the background generation
    delivered, the picture appears in that turn (outside the workspace: shown on the user's click)."""

    async def scenario():
        window = await ui.open(openclaw.agent_argv())
        objects = window.objects
        await ui.until(lambda: objects.session.sessionKey != "", 30)
        await ui.type_and_send(window, "please draw a red square")
        await ui.until(lambda: not objects.session.busy, 90)
        await ui.until(lambda: shown(ui, window, "askImage"), 60)  # found again: rows may be rebuilt
        await ui.screenshots(window, "e2e-12-openclaw-generated-image-asks")
        await mouse_click(ui, window, "askImage")
        await ui.until(lambda: shown(ui, window, "inlineImage", painted=True), 30)
        await ui.screenshots(window, "e2e-13-openclaw-generated-image")

    ui.run(scenario(), timeout=180)  # above its own waits: only a hang reaches it


def shown(ui, window, name: str, painted: bool = False) -> bool:
    item = ui.find(window, name)
    return item is not None and item.isVisible() and (not painted or item.property("paintedWidth") > 0)
