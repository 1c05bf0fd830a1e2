"""Pure view logic: collapse rules, markdown rendering (safe, incremental), link policy, drafts store,
durations."""

from __future__ import annotations

from app.main.files.links import decide_link
from app.main.stores.local import JsonStringMap
from app.renderer.markdown.render import (
    DARK_PROSE,
    LIGHT_PROSE,
    PROSE_STYLE,
    UNDERLINED_LINKS,
    merge_prose,
    render_blocks,
)
from app.renderer.markdown.streaming import IncrementalMarkdown
from app.renderer.present.presenter import format_duration
from app.renderer.qt.conversation.collapse import CollapseState


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_live_tool_cards_collapse_one_second_after_completion():
    clock = Clock()
    state = CollapseState(clock)
    assert state.tool_expanded("t", "running", historical=False)
    assert state.next_due_in() is None  # nothing to collapse while it runs
    assert state.tool_expanded("t", "completed", historical=False)
    assert state.next_due_in() == 1.0 and state.take_due() == set()
    clock.now += 0.5
    assert state.tool_expanded("t", "completed", historical=False)
    clock.now += 0.6
    assert state.take_due() == {"t"} and state.next_due_in() is None  # due once, then done
    assert not state.tool_expanded("t", "completed", historical=False)


def test_historical_finished_cards_start_collapsed_and_the_users_toggle_wins():
    state = CollapseState(Clock())
    assert not state.tool_expanded("h", "completed", historical=True)
    assert state.next_due_in() is None
    state.toggle("h", currently_expanded=False)
    assert state.tool_expanded("h", "completed", historical=True)
    state.toggle("live", currently_expanded=True)
    assert not state.tool_expanded("live", "running", historical=False)


def test_a_toggled_card_is_never_collapsed_by_the_timer():
    state = CollapseState(Clock())
    state.tool_expanded("t", "completed", historical=False)
    state.toggle("t", currently_expanded=True)
    assert state.next_due_in() is None


def test_thoughts_are_open_while_streaming_and_collapsed_after():
    state = CollapseState(Clock())
    assert state.thought_expanded("th", streaming=True)
    assert not state.thought_expanded("th", streaming=False)


def test_markdown_escapes_raw_html_and_never_loads_images():
    html = "".join(b.html for b in render_blocks('<img src="http://evil/x.png"> ![alt](http://evil/y.png)'))
    assert "<img" not in html and "&lt;img" in html
    assert '<a href="http://evil/y.png">[image: alt]</a>' in html


def test_markdown_gfm_tables_task_lists_autolinks_and_highlighted_code():
    blocks = render_blocks(
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\nsee https://example.org\n\n"
        "```python\nx = 1\n```\n"
    )
    html = blocks[0].html
    assert '<table border="1"' in html and "\u2611 done" in html and "\u2610 todo" in html
    assert '<a href="https://example.org">' in html
    assert blocks[1].kind == "code" and blocks[1].code == "x = 1\n" and "<span style=" in blocks[1].html


def test_quotes_get_a_bar_and_tables_single_lines_in_the_theme_s_colours():
    text = "> quoted *words*\n> > nested\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n"
    for dark, colours in ((False, LIGHT_PROSE), (True, DARK_PROSE)):
        (block,) = render_blocks(text, dark=dark)
        assert "<blockquote" not in block.html  # Qt would only indent it
        assert block.html.count(f'<td width="3" bgcolor="{colours.rule}">') == 2  # the nested one too
        assert "<em>words</em>" in block.html and "nested" in block.html
        assert f"border-color:{colours.rule}" in block.html and "border-collapse:collapse" in block.html
        assert '<th style="text-align:left">a</th>' in block.html  # aligned headers keep their style
    assert LIGHT_PROSE != DARK_PROSE


def test_a_streaming_code_block_is_highlighted_at_growing_checkpoints_not_per_chunk(monkeypatch):
    from app.renderer.markdown import highlighters, render

    highlighters.lexer("python")  # built: this test is about the checkpoints (the build: test_highlighters)
    calls: list[str] = []
    real = render.highlight
    monkeypatch.setattr(render, "highlight", lambda code, *rest: calls.append(code) or real(code, *rest))
    render._highlighted_lines.cache_clear()
    code = "".join(f"value_{n} = compute({n})  # line {n}\n" for n in range(200))
    text = "Intro.\n\n```python\n" + code + "```\n"
    renderer = IncrementalMarkdown()
    for end in range(len("Intro.\n\n```python\n"), len(text), 7):  # 7-character chunks
        blocks = renderer.update(text[:end], live=True)
    live = blocks[-1]
    assert live.kind == "code" and "value_187" in live.html  # highlighted up to the last checkpoint ...
    assert "value_188" in live.tail and "<span" not in live.tail  # ... the rest not highlighted yet
    assert "value_188" not in live.html and live.code == code[: len(live.code)]
    assert len(calls) <= 25  # at 1..8, 10, 12, 15, 18, 22, ... lines (the chunks were over 1,000)
    assert sum(map(len, calls)) <= 6 * len(code)  # in all about five times the block, not its square
    final = renderer.update(text)  # the stream ended: the whole block highlighted as always
    assert final[-1].html == render.highlight_code(code, "python")


def test_incremental_markdown_equals_a_full_render():
    renderer = IncrementalMarkdown()
    text = ""
    for i in range(3000):
        text += f"w{i} " + ("\n\n" if i % 97 == 0 else "") + ("\n```sh\nls\n```\n\n" if i % 701 == 0 else "")
        renderer.update(text, live=True)
    assert merge_prose(renderer.update(text)) == render_blocks(text)
    assert renderer.parses == 3001


def test_an_endless_streamed_paragraph_keeps_the_live_block_small():
    renderer = IncrementalMarkdown()
    text = ""
    for i in range(4000):
        text += f"word{i} "
        blocks = renderer.update(text, live=True)
    assert len(text) > 30_000
    assert len(blocks[-1].html) < 8_000  # only this block is re-rendered and re-laid out per update
    assert "".join(b.html for b in blocks).count("word3999") == 1


def test_only_http_https_and_mailto_links_open_externally():
    assert decide_link("https://example.org/a?b=1").action != "refuse"
    assert decide_link("mailto:me@example.org").action != "refuse"
    for bad in (
        "file:///etc/passwd",
        "javascript:alert(1)",
        "https://user:pw@host/",
        "http:///nohost",
        "",
        "https://x.org/\x00",
        "custom-scheme://x",
    ):
        assert decide_link(bad).action == "refuse" and decide_link(bad).reason, bad


def test_drafts_survive_a_restart_and_corrupt_files_are_set_aside(tmp_path):
    store = JsonStringMap("drafts.json", tmp_path)
    store.set("session-a", "half-written thought")
    assert JsonStringMap("drafts.json", tmp_path).get("session-a") == "half-written thought"
    (tmp_path / "drafts.json").write_text("{broken")
    assert JsonStringMap("drafts.json", tmp_path).get("session-a") == ""
    [aside] = tmp_path.glob("drafts.json.corrupt-*")  # kept under a name of its own
    assert aside.read_text() == "{broken"


def test_durations_read_naturally():
    assert [format_duration(s) for s in (0.4, 12, 60, 125, 3725)] == [
        "0 s",
        "12 s",
        "1 min",
        "2 min 5 s",
        "1 h 2 min",
    ]


def test_file_names_in_prose_are_not_turned_into_web_links():
    [block] = render_blocks("Edited values.py and README.md; see https://example.org/x.")
    assert block.html.count("<a ") == 1 and 'href="https://example.org/x"' in block.html


def test_links_that_read_as_something_else_are_confirmed_showing_their_real_target():
    assert decide_link("https://example.org/a").action == "open"
    homograph = decide_link("https://ex\u0430mple.org:8443/x?y=1")
    assert (homograph.action, homograph.url) == ("confirm", "https://xn--exmple-4nf.org:8443/x?y=1")
    bidi = decide_link("https://example.org/\u202egpj.exe")
    assert bidi.action == "confirm" and bidi.shown == "https://example.org/<U+202E>gpj.exe"
    assert decide_link("mailto:a@example.org?subject=hi").action == "confirm"
    for attaching in ("mailto:a@example.org?attach=/etc/passwd", "mailto:a@example.org?Attachment=x"):
        assert decide_link(attaching).action == "refuse"
    too_long_label = decide_link("https://" + "a" * 70 + "\u00e9.com/")  # a DNS label over 63 chars
    assert (too_long_label.action, too_long_label.reason) == ("refuse", "the link's host name is not valid")


def test_prose_carries_the_type_scale_and_headings_a_step_above_the_body(qapp):
    """Qt's rich text reads the block's style: a reading leading, a paragraph's space after it, and
    headings at Qt's size steps above the body (1.5x, 1.2x) in 600, not its default double size."""
    from PySide6.QtGui import QFont, QTextDocument

    (block,) = render_blocks("# Title\n\nA paragraph.\n\n## Part\n\n- an item\n")
    document = QTextDocument()
    body = QFont("Inter")
    body.setPixelSize(14)
    document.setDefaultFont(body)
    document.setHtml(PROSE_STYLE + block.html)
    seen = {}
    cursor = document.begin()
    while cursor.isValid():
        fragment = cursor.begin().fragment().charFormat()
        seen[cursor.text()] = (
            cursor.blockFormat().lineHeight(),
            fragment.font().pixelSize(),
            fragment.fontWeight(),
        )
        cursor = cursor.next()
    assert seen["Title"] == (0, 21, 600), seen
    assert seen["Part"] == (0, 17, 600)
    assert seen["A paragraph."] == (157, 14, 400)
    assert [value for text, value in seen.items() if "an item" in text] == [(157, 14, 400)], seen


def test_a_block_of_more_than_forty_links_draws_them_without_underlines():
    few = render_blocks(" ".join(f"[l{n}](https://example.com/{n})" for n in range(UNDERLINED_LINKS)))
    assert few[0].html.count('<a href="https://example.com/') == UNDERLINED_LINKS
    many = render_blocks(" ".join(f"https://example.com/{n}" for n in range(UNDERLINED_LINKS + 1)))
    assert (
        many[0].html.count('<a style="text-decoration: none" href="https://example.com/')
        == UNDERLINED_LINKS + 1
    )
    assert "<a href=" not in many[0].html
