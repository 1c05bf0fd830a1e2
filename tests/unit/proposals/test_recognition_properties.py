"""Recognising the proposal CLI over generated inputs: every compact payload round-trips through the
canonical command, and whatever is recognised as canonical is exactly its six words to a POSIX shell
(edits of its fragments, text before or after it)."""

from __future__ import annotations

import json
import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from app.contract.proposals import CLI_COMMAND, canonical_invocation, compact_payload
from app.main.proposals.recognition import recognise
from tests.unit.proposals.recognition_support import CANONICAL, CHANNEL, EXE, PAYLOAD, call, kind_of

# --- properties -----------------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
hex32 = st.text(alphabet="0123456789abcdef", min_size=32, max_size=32)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.text(max_size=10), json_values, max_size=4), hex32, hex32)
def test_any_compact_payload_round_trips_through_the_canonical_command(value, instance, nonce):
    payload = compact_payload(value)
    channel = f"v1.{instance}.{nonce}"
    result = recognise(call(canonical_invocation(EXE, channel, payload)), EXE)
    if "\x7f" in payload:  # json.dumps leaves DEL raw; the schema refuses it in every text anyway
        assert result.kind == "non_canonical"
        return
    assert result.kind == "canonical"
    assert (result.invocation.channel, result.invocation.payload_json) == (channel, payload)
    assert json.loads(result.invocation.payload_json) == value


CANONICAL_FRAGMENTS = [
    f'"{EXE}"',
    " ",
    CLI_COMMAND,
    " ",
    "--channel",
    " ",
    CHANNEL,
    " ",
    "--payload-json",
    " ",
    "'",
    PAYLOAD,
    "'",
]
FRAGMENTS = [
    f'"{EXE}"',
    EXE,
    " ",
    "  ",
    CLI_COMMAND,
    "--channel",
    CHANNEL,
    "--payload-json",
    "'",
    '"',
    "{}",
    PAYLOAD,
    ";",
    "&&",
    "|",
    ">",
    "<",
    "\n",
    "$(id)",
    "`id`",
    "\\",
    "x",
    "=",
    "#",
    "\t",
    "\r",
]
edits = st.lists(
    st.tuples(
        st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 20), st.sampled_from(FRAGMENTS)
    ),
    max_size=3,
)


def edited(changes: list[tuple[str, int, str]]) -> str:
    """The canonical command as fragments, with a few fragments inserted, deleted or replaced."""
    fragments = list(CANONICAL_FRAGMENTS)
    for op, position, fragment in changes:
        at = position % (len(fragments) + (op == "insert")) if fragments or op == "insert" else 0
        if op == "insert":
            fragments.insert(at, fragment)
        elif fragments and op == "delete":
            del fragments[at]
        elif fragments:
            fragments[at] = fragment
    return "".join(fragments)


def posix_words(command: str) -> list[str] | None:
    """The words a POSIX shell would see, operators as words of their own; None when it cannot split."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:
        return None


def test_the_unedited_fragments_are_the_canonical_command():
    assert edited([]) == CANONICAL


@settings(max_examples=1500, deadline=None)
@given(edits)
def test_whatever_is_recognised_as_canonical_is_exactly_the_six_words_to_a_posix_shell(changes):
    command = edited(changes)
    result = recognise(call(command), EXE)
    if result.kind == "canonical":
        assert not any(char in command for char in "\n\r\t") and posix_words(command) == [
            EXE,
            CLI_COMMAND,
            "--channel",
            result.invocation.channel,
            "--payload-json",
            result.invocation.payload_json,
        ]
        assert command == CANONICAL or result.invocation.payload_json != PAYLOAD  # only the payload may vary
    elif CLI_COMMAND in command:
        assert result.kind == "non_canonical"


@settings(max_examples=400, deadline=None)
@given(st.text(min_size=1, max_size=8), st.booleans())
def test_any_text_before_or_after_the_canonical_command_makes_it_non_canonical(extra, before):
    command = extra + CANONICAL if before else CANONICAL + extra
    assert kind_of(call(command)) == "non_canonical"
