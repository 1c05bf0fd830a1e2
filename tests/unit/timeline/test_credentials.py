"""ClawQt's terminal credentials are cut on the text as assembled, in every field an agent fills
(app/contract/credentials.py): a reply or thought that brings one in pieces, a plan, a title, the command
list, a tool call, a permission request; and so in Copy, the export and the replay record, the
permission card's "Runs exactly" and a desktop notification."""

from __future__ import annotations

import itertools
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from app.contract.credentials import CREDENTIAL, CredentialStream, redact_text
from app.contract.envelopes import PermissionRequestEnvelope
from app.main.desktop.notifications import body_for
from app.main.sessions.permission_text import raw_request
from app.renderer.present.session_titles import session_title
from app.renderer.timeline.serialize import timeline_record
from app.renderer.timeline.turn_view import copy_text, item_text
from tests.unit.timeline.helpers import GEN, KEY, Harness, agent, thought, tool, update, user

SECRET = "cqt_" + "Q7wZ-k_9" * 5  # as ClawQt makes them: a prefix and URL-safe base64
CUT = "cqt_\u2026"


def pieces(text: str, *cuts: int) -> list[str]:
    edges = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(edges)]


def everything(h: Harness) -> str:
    return json.dumps(timeline_record(h.timeline), ensure_ascii=False)


def shown_whole(h: Harness) -> bool:
    return SECRET in everything(h) or any(SECRET in item_text(item) for item in h.timeline.items.values())


# --- the stream ---------------------------------------------------------------------------------------
def assembled(chunks: list[str]) -> tuple[str, list[str]]:
    """The text a stream builds, and what it showed after each chunk."""
    stream, shown, seen = CredentialStream(), "", []
    for chunk in chunks:
        retract, text = stream.feed(chunk)
        shown = shown[: len(shown) - retract] + text
        seen.append(shown)
    return shown, seen


words = st.sampled_from(["cqt_", "cqs_", "cqi_", "cq", "c", " ", "-", "_", "\n", "x", "Ab9", "…", "é"])
texts = st.lists(st.one_of(words, st.text("abcqtsiAZ09_-", max_size=24)), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(texts, st.lists(st.integers(0, 200), max_size=10))
def test_any_text_in_any_chunks_ends_as_the_whole_text_cut_and_never_shows_a_credential_whole(text, cuts):
    chunks = pieces(text, *sorted({c for c in cuts if 0 < c < len(text)}))
    final, seen = assembled(chunks)
    assert final == redact_text(text)
    credentials = [match.group() for match in CREDENTIAL.finditer(text)]
    assert not any(credential in shown for shown in seen for credential in credentials)


def test_a_credential_in_one_two_or_many_chunks_is_cut_the_same():
    text = f"use {SECRET} now"
    for cuts in ((), (6,), (5, 6, 7, 8), (10, 20, 30), tuple(range(1, len(text)))):
        assert assembled(pieces(text, *cuts))[0] == f"use {CUT} now"


# --- every field an agent fills -----------------------------------------------------------------------
def test_a_reply_that_brings_a_credential_in_pieces_shows_it_cut_also_in_copy_and_the_record():
    h = Harness()
    h.optimistic("m1", "hi")
    h(*(agent(piece, "a1") for piece in pieces(f"The token is {SECRET}.", 13, 14, 16, 30)))
    assert item_text(h.item("a1:0")) == f"The token is {CUT}."
    group = h.timeline.grouping.group_of["a1:0"]
    assert CUT in copy_text(h.timeline.items, group) and not shown_whole(h)


def test_a_reply_read_after_every_chunk_never_shows_the_credential_and_ends_cut():
    h = Harness()
    h.optimistic("m1", "hi")
    for piece in pieces(f"a {SECRET} b {SECRET}", 3, 4, 6, 12, 30, 47, 48, 50, 60):
        h(agent(piece, "a1"))
        assert SECRET not in item_text(h.item("a1:0"))  # the window reads the text at every frame
    assert item_text(h.item("a1:0")) == f"a {CUT} b {CUT}"


def test_a_thought_is_cut_whole_or_in_pieces():
    h = Harness()(thought(f"I hold {SECRET}", "th1"), *(thought(p, "th2") for p in pieces(SECRET, 2, 9)))
    assert item_text(h.item("thought:th1")) == f"I hold {CUT}"
    assert item_text(h.item("thought:th2")) == CUT and not shown_whole(h)


def test_a_plan_a_title_and_the_command_list_are_cut():
    h = Harness()(
        update("plan", entries=[{"content": f"send {SECRET}", "priority": "high", "status": "pending"}]),
        update("session_info_update", title=f"chat {SECRET}"),
        update("available_commands_update", availableCommands=[{"name": SECRET, "description": SECRET}]),
    )
    assert h.timeline.meta.title == f"chat {CUT}"
    assert h.timeline.meta.commands == [{"name": CUT, "description": CUT}]
    assert not shown_whole(h) and CUT in everything(h)
    assert session_title("k", listed_title=f"listed {SECRET}") == f"listed {CUT}"


def test_a_tool_call_and_a_permission_request_are_cut():
    request = PermissionRequestEnvelope(
        KEY,
        GEN,
        "r1",
        {"toolCallId": "t1", "title": f"run {SECRET}", "rawInput": {"command": f"curl -H {SECRET}"}},
        ({"optionId": "a", "name": f"Allow {SECRET}", "kind": "allow_once"},),
        request_text=f"curl -H {SECRET}",
        request_kind="command",
    )
    h = Harness()(user("go", "m1"), tool("t1", title=f"echo {SECRET}", rawInput={"k": SECRET}), request)
    assert CUT in h.item("tool:t1").title and h.item("tool:t1").input == {"k": CUT}
    card = h.item("permission:r1")
    assert card.request_text == f"curl -H {CUT}" and card.options[0]["name"] == f"Allow {CUT}"
    assert card.tool_call["rawInput"] == {"command": f"curl -H {CUT}"} and not shown_whole(h)


def test_the_runs_exactly_line_and_a_notification_body_are_cut_on_the_main_side():
    shown = raw_request({"toolCallId": "t", "rawInput": {"command": f"export T={SECRET}; ls"}})
    assert shown.text == f"export T={CUT}; ls"
    assert body_for(f"done: {SECRET}", frozenset({"body-markup"})) == f"done: {CUT}"
