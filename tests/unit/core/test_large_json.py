"""app/main/core/large_json.py: a long line parsed in bounded steps gives what json.loads gives for the same
bytes (values, and whether it is refused), whatever the strings hold (escapes, surrogate pairs, runs of
backslashes, multi-byte characters) and wherever the pieces are cut; long runs outside strings are
parsed as JSON; too much JSON outside long strings is refused in words."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.main.core import large_json
from app.main.core.large_json import LineTooComplex, loads_large

_CHARS = st.sampled_from(
    ["a", " ", "\\", '"', "/", "\n", "\t", "\x01", "é", "中", "😀", "\ud83d", "\ude00", "@", "u", "d8"]
)
_TEXT = st.lists(_CHARS, max_size=60).map("".join)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)


def _small_steps(piece: int = 13):
    """Hoist strings of 4 bytes and more, decode them `piece` bytes at a time: every cut is exercised."""
    return mock.patch.multiple(large_json, HOIST_BYTES=8, PIECE_BYTES=piece)


_PIECES = st.sampled_from([5, 12, 13, 14, 17, 19, 24, 31])
_DAMAGE = st.sampled_from([b"\\", b'"', b"\x00", b"\xff", b"\\u12", b"}"])


def _same_as_json(data: bytes) -> None:
    try:
        if json.detect_encoding(data) != "utf-8":  # (json.loads also reads UTF-16 and UTF-32)
            raise ValueError("not UTF-8")
        expected = ("ok", json.loads(data))
    except ValueError as exc:
        expected = ("error", type(exc).__name__)
    try:
        got = ("ok", loads_large(data))
    except ValueError as exc:
        got = ("error", type(exc).__name__)
    if expected[0] == "error":
        assert got[0] == "error", f"accepted what json.loads refuses: {data[:200]!r}"
    else:
        assert got == expected, data[:200]


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.booleans(), _PIECES)
def test_any_value_parses_as_json_loads_parses_it(value, ascii_only, piece):
    data = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    with _small_steps(piece):
        _same_as_json(data)


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.integers(0, 10_000), _DAMAGE, _PIECES)
def test_a_damaged_line_is_refused_when_json_loads_refuses_it(value, where, damage, piece):
    data = bytearray(json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    where %= len(data) + 1
    data[where:where] = damage
    with _small_steps(piece):
        _same_as_json(bytes(data))


def test_hand_picked_strings_with_escapes_at_every_cut():
    texts = [
        "\\" * 41,
        "a" + "\\" * 40 + '"' + "b" * 30,
        "😀" * 30,
        "\ud83d" * 20 + "\ude00" * 20,
        ("\ud83d\ude00x" * 15),
        "中文" * 40 + '\\"' * 9,
        "x" * 64 + "\n" * 30,
    ]
    for piece in range(5, 40):
        with _small_steps(piece):
            for text in texts:
                for ascii_only in (True, False):
                    line = json.dumps({"params": {"text": text, text: [text, 1]}}, ensure_ascii=ascii_only)
                    _same_as_json(line.encode("utf-8", "surrogatepass"))


def test_a_long_run_outside_any_string_is_parsed_as_json():
    line = json.dumps({"name": "n", "numbers": list(range(5000)), "tail": "t" * 100})
    with _small_steps():
        assert loads_large(line.encode()) == json.loads(line)


def test_a_line_of_megabytes_with_long_strings_parses_in_pieces():
    text = "Ünïcode and \\ escapes \n " * 200_000
    line = json.dumps({"jsonrpc": "2.0", "method": "m", "params": {"a": text, "b": [text[:70_000]]}})
    assert loads_large(line.encode()) == json.loads(line)
    assert loads_large(bytearray(line.encode())) == json.loads(line)


def test_too_much_json_outside_long_strings_is_refused_in_words():
    line = json.dumps({"numbers": list(range(1_000_000))}).encode()
    with pytest.raises(LineTooComplex) as refused:
        loads_large(line)
    assert str(refused.value) == (
        f"holds {len(line):,} bytes of JSON outside long strings "
        "(ClawQt parses at most 4,194,304 in one line)"
    )
