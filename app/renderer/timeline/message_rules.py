"""The reducer's rules for prose: which segment a message chunk joins (by messageId, else the open
segment of the same role), the optimistic user message and its echo, thoughts, MEDIA scanning, and
OpenClaw's transcript media. Part of `Timeline` (reducer.py); rules in chat-timeline.md ("Renderer: the
reducer"), each pinned in tests/unit/timeline/test_reducer_rules.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.contract.acp_fields import str_field
from app.contract.credentials import CredentialStream
from app.contract.hidden_context import OPEN, HiddenContextFilter
from app.contract.openclaw_prompts import CWD_PREFIX_START
from app.renderer.timeline.items import Item, MessageSegment, Role, Thought
from app.renderer.timeline.media import MediaScanner, transcript_media
from app.renderer.timeline.parts import (
    Attachment,
    AttachmentPart,
    MarkdownPart,
    Part,
    add_part,
    basename_of,
    content_to_part,
)
from app.renderer.timeline.state import TimelineState

if TYPE_CHECKING:
    from app.contract.acp import MessageChunkUpdate


MAX_SCANNED_REPLY_CHARS = 1_000_000


def starts_prompt(content: object) -> bool:
    """An id-less user chunk that opens a new message: OpenClaw replays each prompt as one chunk behind
    its `[Working directory: …]` prefix, so two prompts in a row (the first answered only by a stripped
    `MEDIA:` line) stay two messages rather than one joined text."""
    text = content.get("text") if isinstance(content, dict) and content.get("type") == "text" else None
    return isinstance(text, str) and text.startswith(CWD_PREFIX_START)


def _text_length(content: object) -> int:
    text = content.get("text") if isinstance(content, dict) else None
    return len(text) if isinstance(text, str) else 0


class MessageRules(TimelineState):
    def _scan_new_prose(self, segment: MessageSegment) -> None:
        """Assistant prose parts get a MEDIA scanner when they join a segment (merged chunks are fed
        to the existing part's scanner by `MarkdownPart.append`)."""
        if segment.role != "assistant":
            return
        for part in segment.parts:
            if isinstance(part, MarkdownPart) and part.scanner is None:
                part.scanner = MediaScanner(self.cwd_known)
                for chunk in part.chunks:
                    part.scanner.feed(chunk)

    def _last_item(self) -> Item | None:
        return self.items.get(self.order[-1]) if self.order else None

    def _message(self, role: Role, update: MessageChunkUpdate, historical: bool) -> None:
        self._message_part(role, update, historical)
        media = transcript_media(update.get("_meta")) if role == "assistant" else []
        last = self._last_item() if media else None
        if isinstance(last, MessageSegment) and last.role == "assistant":
            known = {p.attachment.uri for p in last.parts if isinstance(p, AttachmentPart)}
            for uri in media:
                if uri not in known:
                    name = basename_of(uri)
                    last.parts.append(AttachmentPart(Attachment(name, uri, source="media-transcript")))
            self.touch(last)

    def _message_part(self, role: Role, update: MessageChunkUpdate, historical: bool) -> None:
        message_id = str_field(update, "messageId")
        content: object = update.get("content")
        if role != "user":
            self.hidden_filters.pop("user:", None)  # the agent spoke: an id-less user message ended
        # an agent may echo the prompt (ClawQt's hidden blocks included) or quote a credential: neither
        # is shown, in the user's message or in the reply (a reply chunk past MAX_SCANNED_REPLY_CHARS is
        # shown as sent: scanning 100 MB twice stalled the window)
        if role == "user" or _text_length(content) <= MAX_SCANNED_REPLY_CHARS:
            content = self._without_hidden_context(f"{role}:{message_id or ''}", content)
            if content is None:
                return
        part = content_to_part(content, role)
        self.open_thought = None
        if message_id is not None:
            optimistic_id = self.optimistic.get(message_id) if role == "user" else None
            if optimistic_id is not None and optimistic_id in self.items:
                self._echo(self.items[optimistic_id], part, historical)  # type: ignore[arg-type]
                return
            segment_id = self.open_segments.get(message_id)
            segment = self.items.get(segment_id) if segment_id else None
            if isinstance(segment, MessageSegment) and segment.role == role:
                self._add_to_segment(segment, part, historical)
                return
            self._new_segment(role, message_id, part, historical)
            return
        last = self._last_item()
        if (
            isinstance(last, MessageSegment)
            and last.role == role
            and self.open_segments.get(last.message_id) == last.id
        ):
            if last.optimistic or last.echoed:
                self._echo(last, part, historical)
                return
            if not (role == "user" and starts_prompt(content)):
                self._add_to_segment(last, part, historical)
                return
        self._new_segment(role, f"{role}:message:{len(self.order)}", part, historical)

    def _without_hidden_context(self, key: str, content: object) -> object | None:
        """A user text chunk without ClawQt's hidden prompt context (None: nothing left to show)."""
        if not isinstance(content, dict) or content.get("type") != "text":
            return content
        text = content.get("text")
        if not isinstance(text, str):
            return content
        hidden = self.hidden_filters.get(key)
        if hidden is None:
            if OPEN not in text:
                return content
            hidden = self.hidden_filters[key] = HiddenContextFilter()
        shown = hidden.feed(text)
        if not hidden.inside:
            del self.hidden_filters[key]
        if shown == text:
            return content
        return {**content, "text": shown} if shown.strip() else None

    def _without_credentials(self, item: MessageSegment | Thought, part: Part) -> Part:
        """The agent's prose with ClawQt's terminal credentials cut on the text as assembled: a
        credential split across chunks is cut when its chunks meet (the start already shown is taken
        back). One stream follows the item text last went to; any other part ends it."""
        if not isinstance(part, MarkdownPart) or not part.chunks or len(part.text) > MAX_SCANNED_REPLY_CHARS:
            self.credential_stream = None
            return part
        owner, stream = self.credential_stream or ("", CredentialStream())
        if owner != item.id:
            stream = CredentialStream()
            self.credential_stream = (item.id, stream)
        retract, text = stream.feed(part.text)
        last = item.parts[-1] if item.parts else None
        if retract and isinstance(last, MarkdownPart):
            last.retract(retract)
        return part if text == part.text else MarkdownPart([text] if text else [])

    def _new_segment(self, role: Role, message_id: str, part: Part, historical: bool) -> None:
        index = self.segment_counts.get(message_id, 0)
        segment_id = f"{message_id}:{index}"
        while segment_id in self.items:  # a synthetic id can collide after removals: never reuse
            index += 1
            segment_id = f"{message_id}:{index}"
        self.segment_counts[message_id] = index + 1
        segment = MessageSegment(
            id=segment_id, role=role, message_id=message_id, segment_index=index, historical=historical
        )
        # its first part in a list of one (appending to the empty list would make room for four)
        segment.parts = [self._without_credentials(segment, part) if role != "user" else part]
        self._scan_new_prose(segment)
        self.open_segments[message_id] = segment_id
        self.append(segment)

    def _add_to_segment(self, segment: MessageSegment, part: Part, historical: bool) -> None:
        if segment.role != "user":
            part = self._without_credentials(segment, part)
        add_part(segment.parts, part, join_first_markdown=segment.role == "user")
        if isinstance(part, MarkdownPart) and segment.parts and segment.parts[-1] is part:
            self._scan_new_prose(segment)
        segment.historical = segment.historical or historical
        self.touch(segment)

    def _echo(self, segment: MessageSegment, part: Part, historical: bool) -> None:
        """The agent echoed a message typed here. The echo says the message arrived (a failed turn no
        longer removes it) but never changes what the user said: its content, and any later chunk of
        it, is not shown, so an agent cannot put words in the user's mouth or in prompt history."""
        if segment.echoed:
            return
        segment.optimistic = False
        segment.echoed = True
        segment.historical = segment.historical or historical
        self.open_segments[segment.message_id] = segment.id
        self.touch(segment)

    def _thought(self, update: MessageChunkUpdate, historical: bool) -> None:
        part = content_to_part(update.get("content"), "assistant")
        message_id = str_field(update, "messageId")
        self.open_segments.clear()
        if message_id is not None:
            thought_id = f"thought:{message_id}"
        elif self.open_thought is not None and self.order and self.order[-1] == self.open_thought:
            thought_id = self.open_thought
        else:
            thought_id = f"thought:{len(self.order)}"
            while thought_id in self.items:
                thought_id += "+"
        existing = self.items.get(thought_id)
        if isinstance(existing, Thought):
            add_part(existing.parts, self._without_credentials(existing, part))
            existing.historical = existing.historical or historical
            self.open_thought = thought_id
            self.touch(existing)
            return
        if existing is not None:  # an id clash with another kind: never overwrite
            thought_id = f"{thought_id}#{len(self.order)}"
        thought = Thought(id=thought_id, historical=historical)
        thought.parts = [self._without_credentials(thought, part)]
        self.open_thought = thought_id
        self.append(thought)
