"""The question directory: one entry per user group of the active timeline (duplicates stay separate),
titled by its first non-blank markdown with whitespace collapsed and cut grapheme-safely (over 64
grapheme clusters -> the first 61 + "..."), or "Question N" when it has no text. The view disables it
under two entries and shows the last 300 with a count of the hidden ones."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from app.contract.openclaw_prompts import strip_cwd_prefix
from app.renderer.timeline.grouping import Grouping
from app.renderer.timeline.items import Item, MessageSegment
from app.renderer.timeline.parts import MarkdownPart
from app.renderer.timeline.rows import RowKey
from app.renderer.timeline.turn_view import from_the_agent

MAX_GRAPHEMES = 64
KEEP_GRAPHEMES = 61
SHOWN_LIMIT = 300
TOOLTIP_CHARS = 300  # of a question shown in its directory entry's tooltip


@cache
def _patterns() -> tuple[Any, Any]:
    """Grapheme clusters and whitespace runs. The `regex` module (it knows grapheme clusters) loads on
    the first title: importing it cost the window's start ~10 ms, and an empty chat has no question."""
    import regex

    return regex.compile(r"\X"), regex.compile(r"\s+")


@dataclass(frozen=True)
class Question:
    anchor: RowKey  # the user row: what the view scrolls to
    title: str
    number: int  # 1-based position among all questions
    text: str = ""  # the question's start, whitespace collapsed (the entry's tooltip)


@dataclass(frozen=True)
class QuestionDirectory:
    entries: tuple[Question, ...]  # the shown ones (at most SHOWN_LIMIT, the most recent)
    hidden: int  # older questions not shown

    @property
    def enabled(self) -> bool:
        return len(self.entries) + self.hidden >= 2


def truncate_graphemes(text: str, limit: int = MAX_GRAPHEMES, keep: int = KEEP_GRAPHEMES) -> str:
    """Cut to `keep` grapheme clusters + "..." when longer than `limit` (never splits a cluster)."""
    clusters: list[str] | None = _patterns()[0].findall(text, timeout=1.0) if len(text) > limit else None
    if clusters is None or len(clusters) <= limit:
        return text
    return "".join(clusters[:keep]) + "..."


def _collapse_spaces(text: str) -> str:
    collapsed: str = _patterns()[1].sub(" ", text)
    return collapsed.strip()


def _title(text: str, number: int) -> str:
    return truncate_graphemes(_collapse_spaces(text)) if text else f"Question {number}"


def title_of(segments: list[Item], number: int) -> str:
    return _title(_first_text(segments), number)


def tooltip_of(text: str, limit: int = TOOLTIP_CHARS) -> str:
    """The question's start for its entry's tooltip: whitespace collapsed, at most `limit` characters."""
    head = _collapse_spaces(text[: limit * 2])
    return head[:limit] + ("\u2026" if len(head) > limit or len(text) > limit * 2 else "")


def _first_text(segments: list[Item]) -> str:
    """The first non-blank text of a user group ("" when it has none), OpenClaw's prefix left out."""
    for segment in segments:
        if not isinstance(segment, MessageSegment):
            continue
        texts = [part.text for part in segment.parts if isinstance(part, MarkdownPart)]
        if texts and from_the_agent(segment):
            texts[0] = strip_cwd_prefix(texts[0])  # OpenClaw's prefix, at the start of the text only
        for text in texts:
            if text.strip():
                return text
    return ""


def _question(segments: list[Item], anchor: RowKey, number: int) -> Question:
    text = _first_text(segments)
    title = _title(text, number)
    return Question(anchor, title, number, tooltip_of(text) if text else title)


def directory_key(items: dict[str, Item], grouping: Grouping) -> tuple[tuple[str, int], ...]:
    """What the directory is made of: every user group's items with their versions. The same key, the
    same directory: a reply streaming under a long history leaves it alone (making it again walks every
    question's text, a tenth of a frame at 2,000 turns)."""
    return tuple((i, items[i].version) for g in grouping.groups if g.kind == "user" for i in g.item_ids)


def question_directory(
    items: dict[str, Item], grouping: Grouping, limit: int = SHOWN_LIMIT
) -> QuestionDirectory:
    user_groups = [g for g in grouping.groups if g.kind == "user"]
    hidden = max(0, len(user_groups) - limit)
    entries = tuple(
        _question([items[i] for i in g.item_ids], RowKey("user", g.ref.first_item), number)
        for number, g in enumerate(user_groups[hidden:], start=hidden + 1)
    )
    return QuestionDirectory(entries, hidden)
