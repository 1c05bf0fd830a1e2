"""Read-only views of groups for presentation, copy and replay: the prose of a segment (MEDIA lines
hidden; OpenClaw's `[Working directory: …]` prefix removed from the user's text the agent sent back), a
turn's copy text (assistant prose joined by blank lines, no tool output), and a group's lifted
attachments (a native ACP resource wins over a MEDIA directive naming the same target)."""

from __future__ import annotations

import posixpath
from urllib.parse import unquote, urlsplit

from app.contract.ansi import strip_escapes
from app.contract.openclaw_prompts import strip_cwd_prefix
from app.contract.text_pieces import TextPieces
from app.renderer.timeline.groups import Group
from app.renderer.timeline.items import Item, MessageSegment, Thought
from app.renderer.timeline.media import strip_directives
from app.renderer.timeline.parts import (
    COMPATIBILITY_SOURCES,
    NATIVE_SOURCES,
    Attachment,
    ImagePart,
    MarkdownPart,
    Part,
)


def markdown_of(parts: list[Part], hide_media: bool) -> str:
    """The joined markdown of some parts; MEDIA directive lines removed when `hide_media`."""
    texts = [p.text for p in parts if isinstance(p, MarkdownPart)]
    text = "".join(texts) if len(texts) == 1 else "\n\n".join(t for t in texts if t)
    if hide_media and _may_hold_directives(parts):
        text, _ = strip_directives(text)
    return text


def _may_hold_directives(parts: list[Part]) -> bool:
    """False when every part's scanner saw no directive line: the whole-text scan is then skipped (on
    a 100 MB reply it cost a quarter of a second per build)."""
    return any(isinstance(p, MarkdownPart) and (p.scanner is None or p.scanner.refs) for p in parts)


def _may_hold_escapes(parts: list[Part]) -> bool:
    """False when no chunk of any part held an escape introducer: the whole-text strip is then skipped
    (a view re-reading a 100 MB reply would scan it on every build)."""
    return any(isinstance(p, MarkdownPart) and p.escapes for p in parts)


def from_the_agent(segment: MessageSegment) -> bool:
    """Whether a user segment's text came from the agent (replayed history), not typed here. An echo
    confirms a message typed here but never replaces its text, so an echoed segment is the user's own."""
    return not segment.optimistic and not segment.echoed


def item_text(item: Item) -> str:
    """The prose a message or thought shows ("" for other kinds), as its view draws it: without the
    terminal escape sequences an agent may pass on from a command's output (fast-agent puts a client
    terminal's output in its reply), so copies, exports, `clawqt replay` and a handed-over transcript
    never carry them either."""
    if isinstance(item, MessageSegment):
        text = markdown_of(item.parts, hide_media=item.role == "assistant")
        text = strip_cwd_prefix(text) if item.role == "user" and from_the_agent(item) else text
    elif isinstance(item, Thought):
        text = markdown_of(item.parts, hide_media=False)
    else:
        return ""
    return strip_escapes(text) if _may_hold_escapes(item.parts) else text


def item_source(item: Item) -> str | TextPieces:
    """What `item_text` gives, for a view that reads only the start of the text, its length and a few
    searches: a long reply's pieces (not joined into one copy) when nothing has to be rewritten in it
    (one part, no escape, no MEDIA line, no prefix), else `item_text` itself."""
    if isinstance(item, MessageSegment | Thought):
        parts = [p for p in item.parts if isinstance(p, MarkdownPart)]
        rewritten = isinstance(item, MessageSegment) and (
            (item.role == "assistant" and _may_hold_directives(item.parts))
            or (item.role == "user" and from_the_agent(item))
        )
        if len(parts) == 1 and not parts[0].escapes and not rewritten:
            return parts[0].source()
    return item_text(item)


def copy_text(items: dict[str, Item], group: Group) -> str:
    """One copy action per assistant turn: its assistant prose, joined by blank lines."""
    texts = []
    for item_id in group.item_ids:
        item = items[item_id]
        if isinstance(item, MessageSegment) and item.role == "assistant":
            text = item_text(item).strip()  # item_text has taken the escapes out already
            if text:
                texts.append(text)
    return "\n\n".join(texts)


def user_text(items: dict[str, Item], group: Group) -> str:
    texts = [item_text(items[i]).strip() for i in group.item_ids]
    return "\n\n".join(t for t in texts if t)


def identity_of(uri: str) -> str:
    """A comparable target for de-duplication only (the main side decides what a reference means)."""
    target = uri
    if uri.lower().startswith("file://"):
        try:
            target = unquote(urlsplit(uri).path)
        except ValueError:
            return uri
    if target.startswith(("/", "~")):
        return posixpath.normpath(target)
    return target


def group_attachments(items: dict[str, Item], group: Group) -> list[Attachment]:
    """Attachments lifted out of the group's items, in order. One file shows once, from its best
    evidence: a native resource beats OpenClaw's transcript fact, which beats a `MEDIA:` line."""
    found: list[Attachment] = []
    for item_id in group.attachment_items:
        item = items.get(item_id)
        if item is not None:
            found.extend(item.attachments)
    native = {identity_of(a.uri) for a in found if a.source in NATIVE_SOURCES and a.uri}
    transcript = {identity_of(a.uri) for a in found if a.source == "media-transcript" and a.uri}
    inline = {  # an inline image beats a card of the same file
        identity_of(part.uri)
        for item_id in group.item_ids
        for part in getattr(items.get(item_id), "parts", ())
        if isinstance(part, ImagePart)
    }
    seen: set[tuple[str, str]] = set()
    result = []
    for attachment in found:
        identity = identity_of(attachment.uri)
        if attachment.source in COMPATIBILITY_SOURCES and (identity in native or identity in inline):
            continue
        if attachment.source == "media-directive" and identity in transcript:
            continue  # the canonical fact of the same file is shown
        key = (attachment.source, identity or attachment.name)
        if key in seen:
            continue
        seen.add(key)
        result.append(attachment)
    return result


def earlier_prompt(items: dict[str, Item], groups: list[Group], back: int) -> str:
    """The user's `back`-th prompt counted from the newest (0: the newest), as the chat shows it; "" when
    the chat has no prompt that far back. Prompts without text (attachments only) are skipped."""
    seen = -1
    for group in reversed(groups):
        if group.kind != "user":
            continue
        text = user_text(items, group).strip()
        if not text:
            continue
        seen += 1
        if seen == back:
            return text
    return ""
