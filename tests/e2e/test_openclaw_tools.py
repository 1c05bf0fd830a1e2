"""Tool calls through the real OpenClaw: a `read` tool card that completes, with the reply's MEDIA
line stripped by OpenClaw from the streamed text."""

from __future__ import annotations

import pytest

from app.renderer.timeline.serialize import item_record
from app.renderer.timeline.turn_view import group_attachments
from tests.e2e.shared_clawqt import SHARED

pytestmark = pytest.mark.e2e


@SHARED
async def test_a_read_tool_card_completes(clawqt, fake_model, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("the secret word is pelican\n")
    fake_model.read_path = str(notes)
    envelopes = clawqt.envelopes
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    result = await pipeline.prompt(timeline.session_key, "please read file notes")
    assert result.stop_reason == "end_turn"
    tools = [item for item in timeline.items.values() if item.kind == "tool"]
    assert tools, [e.notification["update"] for e in envelopes.updates()][:20]
    tool = tools[0]
    assert tool.status == "completed" and tool.tool_kind == "read"
    assert "read" in tool.title.lower()
    output = str(item_record(tool))
    assert "pelican" in output
    text = envelopes.text(timeline.session_key)
    assert "I read it." in text and "That was the chart." in text
    assert "MEDIA:" not in text  # OpenClaw strips the directive from the live stream
    # ...and, in this version, forwards neither a resource nor its transcript form (`_meta`) over ACP:
    # the client shows no attachment for it rather than inventing one
    updates = [e for e in envelopes.updates() if e.session_key == timeline.session_key]
    metas = [str(e.notification["update"].get("_meta")) for e in updates]
    assert not any("openclawDelivery" in m or "openclawDisplayContent" in m for m in metas)
    group = timeline.grouping.groups[-1]
    assert not [a for a in group_attachments(timeline.items, group) if "chart" in a.uri]
    kinds = [row.kind for row in timeline.rows]
    assert kinds[:2] == ["user", "tool"] and "assistant-text" in kinds
