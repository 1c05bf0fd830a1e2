"""Sessions against the real OpenClaw: cancel, reload (replay groups like live), list with titles,
slash commands, config options, heartbeat sessions hidden."""

from __future__ import annotations

import asyncio
import re

import pytest

from app.main.acp.recorder import TraceRecorder
from app.renderer.timeline.serialize import timeline_json
from app.replay import replay_json
from tests.e2e.fake_model_requests import current_turn
from tests.e2e.shared_clawqt import SHARED

pytestmark = pytest.mark.e2e


@SHARED
async def test_cancel_mid_stream_keeps_the_partial_reply(clawqt):
    service, envelopes = clawqt.service, clawqt.envelopes
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    running = asyncio.create_task(pipeline.prompt(timeline.session_key, "please be slow"))
    await envelopes.wait_for(lambda log: "slow-3" in log.text(), timeout=30)
    assert await service.cancel(timeline.session_key)
    result = await asyncio.wait_for(running, 15)
    assert result.stop_reason == "cancelled"
    text = envelopes.text(timeline.session_key)
    assert "slow-0" in text and "slow-199" not in text


def _turn_shape(session: dict) -> list:
    """Kinds per group and the assistant prose: what must match between live and replayed history."""
    shape = []
    for group in session["groups"]:
        if group["kind"] == "user":
            shape.append(("user", re.sub(r"^\[Working directory: [^\]]*\]\s*", "", group["text"])))
        else:
            shape.append(("turn", [i["kind"] for i in group["items"]], group["copyText"]))
    return shape


@SHARED
async def test_reloaded_history_groups_into_the_same_turns_as_live(clawqt, fresh_clawqt, tmp_path):
    """Live and reloaded (on a ClawQt that never saw the session), and each recorded trace replayed:
    the same turns. The recorders hear the shared services' traffic for this test only."""
    live_trace, reload_trace = tmp_path / "live.jsonl", tmp_path / "reload.jsonl"
    recorder = TraceRecorder(live_trace)
    stop_recording = clawqt.service.observe_raw(recorder.message)
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    await pipeline.prompt(key, "Say hello please")
    await pipeline.prompt(key, "please think about it")
    live = timeline_json(pipeline.store.timelines[key], 0)
    stop_recording()
    recorder.close()

    recorder = TraceRecorder(reload_trace)
    stop_recording = fresh_clawqt.service.observe_raw(recorder.message)
    reloaded = await fresh_clawqt.pipeline().load_session(key)
    loaded = timeline_json(reloaded, 0)
    stop_recording()
    recorder.close()

    assert _turn_shape(loaded) == _turn_shape(live)
    replayed_live = replay_json(live_trace)["sessions"][0]
    replayed_reload = replay_json(reload_trace)["sessions"][0]
    assert _turn_shape(replayed_live) == _turn_shape(replayed_reload) == _turn_shape(live)
    assert replayed_reload["key"] == key


@SHARED
async def test_session_list_shows_sessions_with_titles(clawqt):
    service = clawqt.service
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    await pipeline.prompt(timeline.session_key, "Say hello please, list me")
    page = await service.list_sessions()
    listed = {s.session_key: s for s in page.sessions}
    assert timeline.session_key in listed
    assert listed[timeline.session_key].title  # OpenClaw's title (its session key until it derives one)


@SHARED
async def test_slash_status_is_sent_without_the_cwd_prefix_and_gets_a_reply(clawqt, fake_model):
    service, envelopes = clawqt.service, clawqt.envelopes
    session = await service.new_session()
    before = len(fake_model.requests)
    result = await service.prompt(session.session_key, "/status")
    assert result.stop_reason == "end_turn"
    assert envelopes.text(session.session_key).strip()  # OpenClaw answers /status itself
    # ...without calling the model. (The gateway is shared by the whole suite: a request an earlier
    # test's session makes late, such as a derived title, may land meanwhile; only one for this turn
    # would be wrong.)
    turns = [current_turn(request.get("messages") or [])[0] for request in fake_model.requests[before:]]
    assert not [turn for turn in turns if "/status" in turn], turns


@SHARED
async def test_a_config_option_change_is_accepted(clawqt):
    service = clawqt.service
    session = await service.new_session()
    options = {o["id"]: o for o in session.config_options}
    assert options, "OpenClaw announces config options"
    option_id = next(i for i in ("fast_mode", "thought_level", "verbose_level") if i in options)
    option = options[option_id]
    if option.get("type") == "boolean":
        value = not bool(option.get("currentValue"))
    else:
        values = [c.get("value") for c in option.get("options", []) if isinstance(c, dict) and "value" in c]
        value = next(v for v in values if v != option.get("currentValue"))
    updated = await service.set_config_option(session.session_key, option_id, value)
    current = {o["id"]: o.get("currentValue") for o in updated} if updated else {}
    assert not current or current.get(option_id) == value
