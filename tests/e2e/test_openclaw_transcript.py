"""Seed 003's bounded transcript exceptions against the real OpenClaw: the media OpenClaw strips from a
reply come back from its Gateway transcript as one marked card on that turn, live and after a reload;
a reloaded session's turns show their durations; the child runs with OpenClaw's embedding variables."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess

import pytest

from app.contract.attachments import PromptAttachment
from app.renderer.present.presenter import footer_entry
from app.renderer.timeline.heartbeat import SENTINEL, is_heartbeat_only
from app.renderer.timeline.turn_view import group_attachments
from tests.e2e.shared_clawqt import SHARED, reloaded_with_supplement, supplemented

pytestmark = pytest.mark.e2e


def _turn_cards(timeline, needle: str) -> list:
    """The attachments naming `needle` in every assistant turn, per turn."""
    return [
        [a for a in group_attachments(timeline.items, group) if needle in a.uri]
        for group in timeline.grouping.groups
        if group.kind != "user"
    ]


@SHARED
async def test_a_media_line_for_a_written_file_is_one_card_live_and_after_reload(
    clawqt, fresh_clawqt, fake_model, tmp_path
):
    report = tmp_path / "report.txt"
    fake_model.media_path = str(report)
    envelopes = clawqt.envelopes
    assert clawqt.service.transcripts is not None  # an `openclaw acp` agent gets the reader
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    await pipeline.prompt(key, "Say hello please")
    result = await pipeline.prompt(key, "please write media now")
    assert result.stop_reason == "end_turn"
    assert report.read_text() == fake_model.media_text  # the agent wrote the file itself
    assert "MEDIA:" not in envelopes.text(key)  # OpenClaw stripped the line from the stream
    await envelopes.wait_for(supplemented(key), timeout=15)
    cards = _turn_cards(timeline, "report.txt")
    assert [len(c) for c in cards] == [0, 1], cards  # the turn that wrote it, once
    card = cards[1][0]
    assert card.source == "media-transcript" and card.uri == str(report)

    reloaded = await reloaded_with_supplement(fresh_clawqt, key)
    cards = _turn_cards(reloaded, "report.txt")
    assert [len(c) for c in cards] == [0, 1], cards
    assert cards[1][0].source == "media-transcript"
    footers = [footer_entry(reloaded, g, 0.0)["timing"] for g in reloaded.grouping.groups if g.kind != "user"]
    assert len(footers) == 2 and all(f.startswith("Took ") for f in footers), footers


@SHARED
async def test_a_reply_that_is_only_a_media_line_still_gets_its_card_live_and_after_reload(
    clawqt, fresh_clawqt, fake_model, tmp_path
):
    report = tmp_path / "only.txt"
    fake_model.media_path = str(report)
    envelopes = clawqt.envelopes
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    result = await pipeline.prompt(key, "please send media only now")
    assert result.stop_reason == "end_turn"
    assert report.read_text() == fake_model.media_text
    assert "MEDIA:" not in envelopes.text(key)  # nothing of the reply reached the stream
    await envelopes.wait_for(supplemented(key), timeout=15)
    cards = _turn_cards(timeline, "only.txt")
    assert [len(c) for c in cards] == [1], cards
    assert cards[0][0].source == "media-transcript"

    reloaded = await reloaded_with_supplement(fresh_clawqt, key)
    cards = _turn_cards(reloaded, "only.txt")
    assert [len(c) for c in cards] == [1], cards  # once: a replayed MEDIA line and the supplement agree


@SHARED
async def test_an_older_reply_that_was_only_a_media_line_gets_its_card_after_a_reload(
    clawqt, fresh_clawqt, fake_model, tmp_path
):
    """The media-only reply is not the newest turn: after a reload its card is placed at the end of
    its own turn (before, only the last turn could get one, and this one got nothing)."""
    report = tmp_path / "older.txt"
    fake_model.media_path = str(report)
    envelopes = clawqt.envelopes
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    assert (await pipeline.prompt(key, "please send media only now")).stop_reason == "end_turn"
    await envelopes.wait_for(supplemented(key), timeout=15)
    assert (await pipeline.prompt(key, "Say hello please")).stop_reason == "end_turn"
    # the reply, however late its chunks come; a prompt answered with nothing fails here, by name
    await envelopes.wait_for(lambda log: "fake model" in log.text(key), timeout=30)
    assert [len(c) for c in _turn_cards(timeline, "older.txt")] == [1, 0], envelopes.text(key)

    reloaded = await reloaded_with_supplement(fresh_clawqt, key)
    cards = _turn_cards(reloaded, "older.txt")
    assert [len(c) for c in cards] == [1, 0], cards
    assert cards[0][0].source == "media-transcript"
    users = [reloaded.items[i] for i in reloaded.order if getattr(reloaded.items[i], "role", "") == "user"]
    assert len(users) == 2  # two messages, never one joined text


@SHARED
async def test_a_prompt_of_images_only_does_not_stop_the_pairing_after_a_reload(
    clawqt, fresh_clawqt, fake_model, tmp_path
):
    """OpenClaw keeps only its working-directory prefix as the text of a prompt of images only, and
    replays that: both sides read it as no text, so the turns before it still get their cards after a
    reload (before, the transcript side kept the bare prefix and the pairing stopped there)."""
    from PIL import Image

    report = tmp_path / "before.txt"
    fake_model.media_path = str(report)
    picture = tmp_path / "dot.png"
    Image.new("RGB", (4, 4), (200, 30, 30)).save(picture)
    envelopes = clawqt.envelopes
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    assert (await pipeline.prompt(key, "please send media only now")).stop_reason == "end_turn"
    await envelopes.wait_for(supplemented(key), timeout=15)
    await pipeline.prompt(key, "", (PromptAttachment(str(picture)),))
    assert (await pipeline.prompt(key, "Say hello please")).stop_reason == "end_turn"

    reloaded = await reloaded_with_supplement(fresh_clawqt, key)
    cards = _turn_cards(reloaded, "before.txt")
    assert [len(c) for c in cards] == [1, 0, 0], cards


@SHARED
async def test_a_prompt_of_only_an_attachment_still_gets_its_media_read_live(
    clawqt, fresh_clawqt, fake_model, tmp_path
):
    """No words typed: OpenClaw keeps the attached file's text as the prompt's record, and the live read
    finds the turn by it (before, an empty prompt text meant no read at all)."""
    attached = tmp_path / "request.txt"
    attached.write_text("please send media only now")  # small text: embedded in the prompt, as the words
    report = tmp_path / "only.txt"
    fake_model.media_path = str(report)
    envelopes = clawqt.envelopes
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    result = await pipeline.prompt(key, "", (PromptAttachment(str(attached)),))
    assert result.stop_reason == "end_turn"
    assert report.read_text() == fake_model.media_text
    await envelopes.wait_for(supplemented(key), timeout=15)
    cards = _turn_cards(timeline, "only.txt")
    assert [len(c) for c in cards] == [1], cards

    # after a reload the resource turn pairs by the text OpenClaw kept for it
    reloaded = await reloaded_with_supplement(fresh_clawqt, key)
    assert [len(c) for c in _turn_cards(reloaded, "only.txt")] == [1]


@SHARED
async def test_the_openclaw_child_gets_the_embedding_environment(clawqt):
    service = clawqt.service
    with open(f"/proc/{service.connection.pid}/environ", "rb") as handle:
        env = dict(entry.split(b"=", 1) for entry in handle.read().split(b"\0") if b"=" in entry)
    assert env[b"OPENCLAW_EMBEDDED_IN"] == b"clawqt"
    assert env[b"OPENCLAW_NO_RESPAWN"] == b"1"
    assert env[b"OPENCLAW_EXEC_SHELL_SNAPSHOT"] == b"0"
    assert os.environ.get("OPENCLAW_EMBEDDED_IN") is None  # ClawQt's own environment is untouched


def _gateway_call(openclaw, method: str, params: dict) -> str:
    """The test's own admin call (ClawQt's reader is read-only)."""
    argv = [str(openclaw.env.openclaw), "gateway", "call", method, "--json", "--params", json.dumps(params)]
    argv += ["--url", openclaw.url, "--token", openclaw.token]
    done = subprocess.run(
        argv, env={**os.environ, **openclaw.process_env()}, capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    return done.stdout.decode(errors="replace")


@SHARED
async def test_a_heartbeat_session_the_gateway_ran_by_itself_is_hidden(clawqt, openclaw):
    service = clawqt.service
    # the gateway's main session may exist already (an earlier test's exec completion asks for a
    # heartbeat too): the wake's run is then an update of it, not a new session
    before = {s.session_key: s.updated_at for s in (await service.list_sessions()).sessions}
    # a wake of agent `main` (the gateway has two agents: an ambient call names its owner)
    _gateway_call(openclaw, "wake", {"mode": "now", "text": "periodic check", "agentId": "main"})

    def gateways_own(page) -> list:
        """Sessions the gateway ran by itself since the wake: not ClawQt's (whose keys it names; a
        session an earlier test made on the shared gateway may still get a late title meanwhile)."""
        return [
            s
            for s in page.sessions
            if before.get(s.session_key, "") != s.updated_at
            and not s.session_key.startswith("agent:main:clawqt-")
        ]

    new: list = []
    for _ in range(120):
        new = gateways_own(await service.list_sessions())
        if new:
            break
        await asyncio.sleep(0.5)  # the poll's interval
    assert new, "the gateway ran no heartbeat"
    transcript = json.loads(_gateway_call(openclaw, "sessions.get", {"key": new[0].session_key}))
    users = [m for m in transcript["messages"] if m.get("role") == "user"]
    assert users and str(users[0]["content"]).startswith(SENTINEL)  # a session of the gateway's heartbeats
    for summary in new:
        evidence = {"sessionId": summary.session_key, "title": summary.title, "_meta": summary.meta}
        assert is_heartbeat_only(evidence), summary  # the sidebar's filter hides it
