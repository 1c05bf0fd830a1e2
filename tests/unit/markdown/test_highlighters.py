"""A code block's highlighter is built off the thread that renders a streaming reply: until it is there,
the block streams plain; a finished block waits for a build under way instead of starting another."""

from __future__ import annotations

import threading

import pytest

from app.renderer.markdown import highlighters
from app.renderer.markdown.render import highlight_code
from app.renderer.markdown.streaming import IncrementalMarkdown

CODE = "".join(f"value_{n} = compute({n})  # line {n}\n" for n in range(30))
TEXT = "Intro.\n\n```python\n" + CODE + "```\n"
FENCE = len("Intro.\n\n```python\n")


@pytest.fixture
def gated_builds(monkeypatch):
    """No lexer built yet in this process; each build records its thread and waits for the gate."""
    monkeypatch.setattr(highlighters, "_builds", {})
    gate, started = threading.Event(), threading.Event()
    built_on: list[str] = []
    real = highlighters.make_lexer

    def gated(lang: str):
        built_on.append(threading.current_thread().name)
        started.set()
        assert gate.wait(10), "the test never opened the gate"
        return real(lang)

    monkeypatch.setattr(highlighters, "make_lexer", gated)
    yield gate, started, built_on
    gate.set()


def _stream(renderer: IncrementalMarkdown, end: int):
    return renderer.update(TEXT[:end], live=True)[-1]


def test_a_streaming_block_shows_plain_lines_while_its_lexer_is_built_on_another_thread(gated_builds):
    gate, started, built_on = gated_builds
    renderer = IncrementalMarkdown()
    block = _stream(renderer, FENCE + len(CODE) // 2)  # returns at once: the build waits at the gate
    assert block.kind == "code" and block.html == ""  # nothing highlighted yet ...
    assert "value_10 = compute(10)" in block.tail and "<span" not in block.tail  # ... every line plain
    assert started.wait(10)  # the build was handed to the highlighter thread, which may start it later
    assert built_on[0] != threading.current_thread().name  # built elsewhere
    gate.set()
    highlighters._builds["python"].result(10)
    block = _stream(renderer, FENCE + len(CODE) - 1)
    assert "<span" in block.html and "value_10" in block.html  # highlighted up to the checkpoint now
    assert built_on == built_on[:1]  # one build


def test_a_finished_block_waits_for_the_build_under_way_and_builds_no_second_lexer(gated_builds):
    gate, _started, built_on = gated_builds
    renderer = IncrementalMarkdown()
    _stream(renderer, FENCE + 40)  # starts the build
    threading.Timer(0.2, gate.set).start()
    final = renderer.update(TEXT)[-1]  # the stream ended: waits for the build, highlights everything
    assert final.html == highlight_code(CODE, "python") and "<span" in final.html
    assert len(built_on) == 1


def test_unknown_languages_stream_as_text_and_the_kept_lexers_are_bounded(monkeypatch):
    monkeypatch.setattr(highlighters, "_builds", {})
    for n in range(highlighters.MAX_KEPT * 3):
        assert highlighters.lexer(f"no-such-language-{n}").name == "Text only"
    assert len(highlighters._builds) <= highlighters.MAX_KEPT
    renderer = IncrementalMarkdown()
    text = "```no-such-language-x\nplain words\n"
    highlighters.ready("no-such-language-x")  # built on the highlighter thread
    highlighters._builds["no-such-language-x"].result(10)
    assert "plain words" in renderer.update(text, live=True)[-1].html
