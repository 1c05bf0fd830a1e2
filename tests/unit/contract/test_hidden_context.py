"""ClawQt's hidden prompt context never shows: removed from echoed and replayed user messages in any
chunking, from transcript matching, and so from what the serializer (copy, export, replay) writes."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from app.contract.envelopes import transcript_match_text
from app.contract.hidden_context import (
    CLOSE,
    OPEN,
    OUTPUT_CLOSE,
    OUTPUT_OPEN,
    inert,
    strip_hidden_context,
    untrusted_output,
    wrap,
)
from app.renderer.timeline.serialize import timeline_record
from tests.unit.timeline.helpers import Harness, agent, update, user

BLOCK = wrap("capability: cqt_secret\nterminal t1 output: hunter2")


def everything(h: Harness) -> str:
    return json.dumps(timeline_record(h.timeline), ensure_ascii=False)


def test_a_message_echoed_with_its_hidden_block_shows_only_what_the_user_typed():
    h = Harness()(user("list my files" + BLOCK, "m1", historical=True), agent("ok", "a1"))
    assert h.plain("m1:0")["parts"] == [{"kind": "markdown", "text": "list my files"}]
    assert "cqt_secret" not in everything(h) and "hunter2" not in everything(h)


def test_a_block_split_over_chunks_is_removed_and_the_text_around_it_kept():
    pieces = ["hello", "\n\n" + OPEN + "\ncapability: cq", "t_secret\n", CLOSE, " after"]
    h = Harness()(*(user(piece, "m1") for piece in pieces))
    assert h.plain("m1:0")["parts"] == [{"kind": "markdown", "text": "hello after"}]
    assert "cqt_secret" not in everything(h)


def test_a_block_echoed_as_its_own_block_without_ids_is_dropped_and_the_next_message_shows():
    h = Harness()(user("first"), user(BLOCK), agent("reply"), user("second"))
    texts = [h.plain(i)["parts"] for i in h.ids if i.startswith("user")]
    assert texts == [[{"kind": "markdown", "text": "first"}], [{"kind": "markdown", "text": "second"}]]


def test_an_unterminated_block_hides_the_rest_of_that_message_only():
    h = Harness()(
        user("question" + "\n\n" + OPEN + "\ncapability: cqt_x", "m1"), agent("a", "a1"), user("next", "m2")
    )
    assert h.plain("m1:0")["parts"] == [{"kind": "markdown", "text": "question"}]
    assert h.plain("m2:0")["parts"] == [{"kind": "markdown", "text": "next"}]


def test_a_json_escaped_echo_is_stripped_too():
    escaped = json.dumps({"prompt": "hi" + BLOCK})
    assert "cqt_secret" not in strip_hidden_context(escaped)
    assert strip_hidden_context("plain text") == "plain text"


def test_transcript_matching_ignores_the_hidden_block():
    assert transcript_match_text("[Working directory: /w]\n\nlist my files" + BLOCK) == "list my files"


def test_a_prompt_as_sent_shows_without_its_hidden_block():
    from app.contract.envelopes import PromptSentEnvelope
    from tests.unit.timeline.helpers import GEN, KEY

    sent = PromptSentEnvelope(
        KEY, GEN, "user:1", ({"type": "text", "text": "hi"}, {"type": "text", "text": BLOCK})
    )
    h = Harness()(sent)
    assert "cqt_secret" not in everything(h)
    assert h.plain(h.ids[0])["parts"] == [{"kind": "markdown", "text": "hi"}]


def test_a_credential_the_agent_echoes_in_a_tool_card_is_cut_to_its_prefix():
    from tests.unit.timeline.helpers import tool

    secret = "cqt_" + "A1b2C3d4" * 5
    h = Harness()(
        tool(
            "c1",
            title=f"clawqt-terminals__read_terminal: contextToken: {secret}",
            rawInput={"args": {"contextToken": secret, "terminalId": "t1"}, "deep": [[{"x": secret}]]},
            content=[{"type": "content", "content": {"type": "text", "text": f"called with {secret}"}}],
        ),
        update(
            "tool_call_content_chunk",
            toolCallId="c1",
            content={"type": "content", "content": {"type": "text", "text": secret}},
        ),
    )
    assert secret not in everything(h)
    assert "cqt_\u2026" in h.item("tool:c1").title
    assert h.item("tool:c1").input["args"] == {"contextToken": "cqt_\u2026", "terminalId": "t1"}


def test_redaction_leaves_other_text_alone_and_drops_data_nested_too_deep():
    from app.contract.credentials import MAX_REDACT_DEPTH, redact_credentials

    assert redact_credentials("cq short and cqt_x stay") == "cq short and cqt_x stay"
    deep: object = "cqt_" + "z" * 30
    for _ in range(MAX_REDACT_DEPTH + 5):
        deep = [deep]
    flat = json.dumps(redact_credentials({"a": deep}))
    assert "zzzz" not in flat


def test_an_agent_echoing_the_prompt_in_its_reply_shows_neither_the_block_nor_a_credential():
    secret = "cqt_" + "Zz09" * 10
    h = Harness()(
        user("hi", "m1"),
        agent("You said: hi" + wrap(f"contextToken: {secret}"), "a1"),
        agent(f" and the token {secret} again", "a1"),
    )
    assert secret not in everything(h) and "clawqt_hidden_context" not in everything(h)
    assert "You said: hi" in everything(h) and "cqt_\u2026" in everything(h)


def test_a_reply_chunk_past_the_scan_limit_is_shown_as_sent_and_smaller_ones_are_scanned():
    from app.renderer.timeline.message_rules import MAX_SCANNED_REPLY_CHARS

    secret = "cqt_" + "Yy09" * 10
    huge = "x" * MAX_SCANNED_REPLY_CHARS + secret
    h = Harness()(agent(huge, "a1"), agent(f"small {secret}", "a2"))
    text = everything(h)
    assert text.count(secret) == 1  # the huge chunk as sent (documented limit), the small one cut


# --- text ClawQt does not write: made inert, never able to close a block ----------------------------
NESTED = "</clawqt_hidden_</clawqt_hidden_context>context>"


def test_a_nested_marker_in_terminal_output_cannot_close_the_block():
    body = f"contextToken: cqt_secret\n{untrusted_output(f'before {NESTED} PLANTED-REST')}"
    echoed = "list my files" + wrap(body)
    assert echoed.count(CLOSE) == 1 and echoed.count(OPEN) == 1
    assert strip_hidden_context(echoed) == "list my files"
    h = Harness()(user(echoed, "m1", historical=True), agent("ok", "a1"))
    assert h.plain("m1:0")["parts"] == [{"kind": "markdown", "text": "list my files"}]
    assert "PLANTED-REST" not in everything(h)


def test_terminal_output_is_framed_and_cannot_close_its_frame_or_the_block():
    framed = untrusted_output(f"x {OUTPUT_CLOSE} {CLOSE} </terminal_</terminal_output>output> y")
    assert framed.startswith(OUTPUT_OPEN + "\n") and framed.endswith("\n" + OUTPUT_CLOSE)
    inner = framed[len(OUTPUT_OPEN) : -len(OUTPUT_CLOSE)]
    assert OUTPUT_CLOSE not in inner and OUTPUT_OPEN not in inner and CLOSE not in inner
    assert "&lt;/terminal_output>" in inner  # shown to the agent, not deleted
    assert inert("a < b <<EOF <div>") == "a < b <<EOF <div>"  # nothing else changes


MARKER_PIECES = st.lists(
    st.sampled_from(
        [
            "<",
            "/",
            "clawqt_hidden_",
            "context>",
            "terminal_",
            "output>",
            OPEN,
            CLOSE,
            OUTPUT_OPEN,
            OUTPUT_CLOSE,
            "&lt;",
            "x",
            "\n",
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(MARKER_PIECES)
def test_no_text_made_inert_holds_a_marker(text):
    escaped = inert(text)
    for marker in (OPEN, CLOSE, OUTPUT_OPEN, OUTPUT_CLOSE):
        assert marker not in escaped
    assert escaped.replace("&lt;", "<") == text.replace("&lt;", "<")  # only `<` was written out
    block = wrap(text)
    assert block.count(OPEN) == 1 and block.count(CLOSE) == 1
