"""Replies that are costly to lay out, in the real window with the scripted agent: a run without a single
space, a table 10,000 columns wide, 50,000 links or bare addresses, bidi and ZWJ text, a list nested
10,000 deep (100 MB of indentation), 20,000 raw `<div>`s, an image with a 100 MB `data:` URL (in one
line, and streamed in 1 MB chunks). The start of the reply is on screen, what is not laid out sits behind
"Show more", and Copy still takes the whole reply. The GUI thread's longest stall for each is
bench/hostile_render.py's figure."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication

from app.renderer.markdown.limits import MESSAGE_CHARS
from app.renderer.markdown.render import UNDERLINED_LINKS
from app.renderer.qt.conversation.search_marks import quick_document
from tests.agents.hostile_prompts import hostile_text
from tests.conftest import scripted_agent_argv
from tests.ui_harness import find_all, plain_text

CASES = [
    ("hostile-render unbroken-50", "0123456789abcdef0123"),
    ("hostile-render unbroken-200", "0123456789abcdef0123"),
    ("hostile-render unbroken-50 2000", "0123456789abcdef0123"),
    ("hostile-render table", "| c0 | c1 | c2"),
    ("hostile-render links", "link 0 link 1 link 2"),
    ("hostile-render autolinks", "https://example.com/page/0"),
    ("hostile-render autolinks 4000", "https://example.com/page/0"),
    ("hostile-render bidi", "evil"),
    ("hostile-render divs", "<div><div><div>"),
    ("hostile-render nested", "level"),
    ("hostile-render dataimage", "[image: chart \u2014 not shown, 104.9 MB of inline data]"),
    ("hostile-render dataimage 1000000", "[image: chart \u2014 not shown"),
]


def _shown_count(label: str) -> int:
    """The number of characters a "more" block says are shown."""
    return int(label.split(" of ")[0].replace(",", ""))


def _shown_text(window) -> str:
    """The plain text of every prose block on screen."""
    return "\n".join(plain_text(edit) for edit in find_all(window.root.contentItem(), "proseText"))


async def _send_and_draw(ui, window, prompt: str) -> None:
    """Send `prompt`; until its reply's rows are drawn."""
    objects = window.objects
    ended: list[str] = []
    objects.turn.turnEnded.connect(ended.append)
    objects.turn.send(prompt)
    await ui.until(lambda: ended, 60)
    objects.model.flush()
    await ui.until(lambda: not objects.model.views.presenter.rows_behind, 60)
    await ui.frames(window, 3)  # the reply laid out and drawn


@pytest.mark.parametrize(("prompt", "start"), CASES, ids=[c[0][15:] for c in CASES])
def test_a_costly_reply_shows_its_start_and_loses_nothing(ui, prompt, start):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await _send_and_draw(ui, window, prompt)

        shown = await ui.until(lambda: _shown_text(window), 10)
        assert start in shown.replace("\u200b", "")
        assert len(shown) < MESSAGE_CHARS + 1_000  # only a bounded part is laid out

        footer = ui.rows(window, "turn-footer")[-1]
        window.objects.conversation.copyTurn(window.objects.model.view_row_of_key(footer.key))
        copied = QGuiApplication.clipboard().text()
        words = prompt.split()
        full = hostile_text(words[1]).strip()
        assert len(copied) == len(full) and copied == full  # Copy takes the whole reply, untouched

    ui.run(scenario(), timeout=120)


def test_show_more_lays_out_the_next_part_of_a_long_reply(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await _send_and_draw(ui, window, "hostile-render links")
        label = ui.item(window, "moreLabel")
        assert label.property("text").endswith(" of 1,977,779 characters shown (Copy takes all).")
        first = _shown_count(label.property("text"))
        shown_before = len(_shown_text(window))
        await ui.screenshots(window, "31-long-block-show-more")

        ui.item(window, "showMore").clicked.emit()
        await ui.until(lambda: len(_shown_text(window)) > shown_before)
        assert _shown_count(ui.item(window, "moreLabel").property("text")) > first
        assert "link 700 " in _shown_text(window)  # the next part, after what was shown first

    ui.run(scenario(), timeout=60)


def _link_underlines(window) -> list[bool]:
    """Whether each link the reply draws is underlined (read from the text edit's document)."""
    underlined = []
    for edit in find_all(window.root.contentItem(), "proseText"):
        quick = quick_document(edit)
        block = quick.textDocument().begin() if quick is not None else None
        while block is not None and block.isValid():
            fragments = block.begin()
            while not fragments.atEnd():
                fragment = fragments.fragment()
                if fragment.charFormat().isAnchor():
                    underlined.append(fragment.charFormat().fontUnderline())
                fragments += 1
            block = block.next()
    return underlined


def test_a_few_links_are_underlined_a_block_dense_with_links_draws_them_in_colour_alone(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await _send_and_draw(ui, window, f"hostile-render links-{UNDERLINED_LINKS}")
        assert _link_underlines(window) == [True] * UNDERLINED_LINKS
        await ui.screenshots(window, "152-links-few-underlined")
        await ui.new_chat(window)
        await _send_and_draw(ui, window, f"hostile-render links-{UNDERLINED_LINKS + 1}")
        assert _link_underlines(window) == [False] * (UNDERLINED_LINKS + 1)
        await ui.screenshots(window, "153-links-dense-in-colour")

    ui.run(scenario())
