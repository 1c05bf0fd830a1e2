"""OpenClaw's Gateway transcript (`sessions.get` records) read for the three things seed 003 allows:
the media OpenClaw stripped from a reply, whole-turn timing, and whether a session is heartbeat-only.
Pure functions over untrusted JSON: nothing here creates text, tools or turns, and anything malformed
is skipped.

A turn is a `user` record and the records up to the next `user` record. Its media: every assistant
record's `openclawDelivery.mediaUrls` (as written) and `openclawDisplayContent` image entries (Gateway
outgoing-media URLs); an image entry whose `alt` names a delivered file of the same turn is that file and
is dropped. Its images: image-generation results, only where the record proves it: a `toolResult` of
`image_generate` answering an `image_generate` tool call of the same turn, without error, whose details
name the saved files (`details.media.mediaUrls`, `details.paths`, `details.attachments[].path`; the shape
OpenClaw's image tool returns when it runs in the foreground). They are kept apart from the media (shown
inline, not as cards), and the same file delivered or shown again is not media too. A chat session's image
generation runs in the background instead: its completion is a turn of its own (an internal user record)
whose reply is delivered like any other, so its files come through `openclawDelivery.mediaUrls`. Its
duration: from the user record's `timestamp` to the latest assistant or tool-result `timestamp` before the
next user record.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from app.contract.envelopes import TranscriptTurn, transcript_match_text

MAX_TURNS = 200  # the records `sessions.get` is asked for bound this too
MAX_MEDIA_PER_TURN = 32
MAX_REF_CHARS = 4096
MAX_DURATION_S = 7 * 24 * 3600.0  # a longer "turn" is a broken clock, not a turn
HEARTBEAT_SENTINEL = "[OpenClaw heartbeat poll]"
INTERNAL_PREFIX = "[OpenClaw "  # heartbeat, exec completion, cron wake, session event prompts
OUTGOING_PREFIX = "/api/chat/media/outgoing/"
IMAGE_TOOL = "image_generate"
match_text = transcript_match_text


def record_text(record: dict[str, Any]) -> str:
    content = record.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part["text"]
            for part in content[:64]
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
        )
    return ""


def _ref(value: object) -> str | None:
    if isinstance(value, str) and value.strip() and len(value) <= MAX_REF_CHARS:
        return value.strip()
    return None


def _timestamp(record: dict[str, Any]) -> float | None:
    value = record.get("timestamp")
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return float(value) / 1000.0


def _strings(value: object) -> list[object]:
    return value[:MAX_MEDIA_PER_TURN] if isinstance(value, list) else []


def _basename(ref: str) -> str:
    return ref.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


@dataclass
class _Turn:
    text: str
    started: float | None
    ended: float | None = None
    delivered: list[str] | None = None
    shown: list[tuple[str, str]] | None = None  # (outgoing url, alt)
    image_calls: set[str] | None = None  # ids of this turn's `image_generate` tool calls
    generated: list[str] | None = None

    def take(self, record: dict[str, Any]) -> None:
        stamp = _timestamp(record)
        if stamp is not None and (self.ended is None or stamp > self.ended):
            self.ended = stamp
        if record.get("role") == "toolResult":
            self._take_image_result(record)
        if record.get("role") != "assistant":
            return
        content = record.get("content")
        for block in content[:64] if isinstance(content, list) else []:
            if (
                isinstance(block, dict)
                and block.get("type") == "toolCall"
                and block.get("name") == IMAGE_TOOL
                and (call_id := _ref(block.get("id")))
                and len(self.image_calls or ()) < MAX_MEDIA_PER_TURN
            ):
                self.image_calls = {*(self.image_calls or ()), call_id}
        delivery = record.get("openclawDelivery")
        urls = delivery.get("mediaUrls") if isinstance(delivery, dict) else None
        for url in urls[:MAX_MEDIA_PER_TURN] if isinstance(urls, list) else []:
            if (ref := _ref(url)) is not None:
                self.delivered = [*(self.delivered or []), ref]
        display = record.get("openclawDisplayContent")
        for entry in display[:MAX_MEDIA_PER_TURN] if isinstance(display, list) else []:
            if isinstance(entry, dict) and entry.get("type") == "image" and (ref := _ref(entry.get("url"))):
                alt = entry.get("alt") if isinstance(entry.get("alt"), str) else ""
                self.shown = [*(self.shown or []), (ref, alt)]

    def _take_image_result(self, record: dict[str, Any]) -> None:
        """The files an `image_generate` call of this turn saved, named by its result's details."""
        if (
            record.get("toolName") != IMAGE_TOOL
            or record.get("isError") is True
            or _ref(record.get("toolCallId")) not in (self.image_calls or ())
        ):
            return
        details = record.get("details")
        if not isinstance(details, dict):
            return
        media = details.get("media")
        attachments = details.get("attachments")
        candidates = [
            *_strings(media.get("mediaUrls") if isinstance(media, dict) else None),
            *_strings(details.get("paths")),
            *(
                entry.get("path")
                for entry in (attachments[:MAX_MEDIA_PER_TURN] if isinstance(attachments, list) else [])
                if isinstance(entry, dict)
            ),
        ]
        for candidate in candidates:
            ref = _ref(candidate)
            if (
                ref is not None
                and ref not in (self.generated or ())
                and len(self.generated or ()) < MAX_MEDIA_PER_TURN
            ):
                self.generated = [*(self.generated or []), ref]

    def finish(self) -> TranscriptTurn:
        # generated images are an inline experience: the same file delivered or shown is not a card too
        images = list(dict.fromkeys(self.generated or []))
        generated = {_basename(ref) for ref in images}
        delivered = [
            ref
            for ref in dict.fromkeys(self.delivered or [])
            if ref not in images and _basename(ref) not in generated
        ]
        names = {_basename(ref) for ref in delivered} | generated
        shown = [url for url, alt in self.shown or [] if not (alt and alt in names)]
        media = list(dict.fromkeys([*delivered, *shown]))[:MAX_MEDIA_PER_TURN]
        duration = None
        if self.started is not None and self.ended is not None:
            elapsed = self.ended - self.started
            duration = elapsed if 0 <= elapsed <= MAX_DURATION_S else None
        return TranscriptTurn(match_text(self.text), tuple(media), duration, tuple(images))


def transcript_turns(messages: object) -> tuple[TranscriptTurn, ...]:
    """The turns of a `sessions.get` answer, oldest first, at most the newest `MAX_TURNS`."""
    turns: list[_Turn] = []
    for record in messages if isinstance(messages, list) else []:
        if not isinstance(record, dict):
            continue
        if record.get("role") == "user":
            turns.append(_Turn(record_text(record), _timestamp(record)))
        elif turns:
            turns[-1].take(record)
    return tuple(turn.finish() for turn in turns[-MAX_TURNS:])


def is_heartbeat_transcript(messages: object) -> bool:
    """Heartbeat-only: the first user text is OpenClaw's heartbeat poll and no user record carries
    real user text (every one is one of OpenClaw's own `[OpenClaw …]` prompts)."""
    texts = [
        match_text(record_text(record))
        for record in (messages if isinstance(messages, list) else [])
        if isinstance(record, dict) and record.get("role") == "user"
    ]
    return (
        bool(texts)
        and texts[0].startswith(HEARTBEAT_SENTINEL)
        and all(text.startswith(INTERNAL_PREFIX) for text in texts)
    )


def is_outgoing_media(ref: str) -> bool:
    return ref.startswith(OUTGOING_PREFIX)


# OpenClaw's ACP bridge (`extractTextFromPrompt`, dist/server-*.mjs) writes a prompt's blocks into its user
# record's text this way; the live read matches the turn by that text, so it is rebuilt the same way
_INLINE_ESCAPES = {
    "\0": "\\0", "\r": "\\r", "\n": "\\n", "\t": "\\t", "\v": "\\v", "\f": "\\f",
    "\u2028": "\\u2028", "\u2029": "\\u2029",
}  # fmt: skip
_TITLE_SPECIALS = re.compile(r"([()\[\]])")


def _inline(value: str) -> str:
    """OpenClaw's `escapeInlineControlChars`: control characters and line separators written out."""
    return "".join(
        _INLINE_ESCAPES.get(c, f"\\x{ord(c):02x}")
        if unicodedata.category(c) == "Cc" or c in "\u2028\u2029"
        else c
        for c in value
    )


def prompt_record_text(blocks: list[dict[str, Any]]) -> str:
    """The text OpenClaw keeps as a prompt's user record: its text blocks, embedded text resources and
    resource links (`[Resource link (title)] uri`), joined by newlines. Images and other attachments
    leave no text: an image-only prompt's record text is empty."""
    parts: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif kind == "resource" and isinstance(block.get("resource"), dict):
            text = block["resource"].get("text")
            if isinstance(text, str) and text:
                parts.append(text)
        elif kind == "resource_link":
            title = block.get("title")
            escaped = _TITLE_SPECIALS.sub(r"\\\1", _inline(title)) if isinstance(title, str) else ""
            shown = f" ({escaped})" if escaped else ""
            uri = _inline(block["uri"]) if isinstance(block.get("uri"), str) else ""
            parts.append(f"[Resource link{shown}] {uri}" if uri else f"[Resource link{shown}]")
    return "\n".join(parts)
