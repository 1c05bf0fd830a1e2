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
OpenClaw's image tool returns when it runs in the foreground). The tool may also be called through Tool
Search: a `tool_call` call whose `id` names `image_generate`, answered by a `tool_call` result whose text
is `{"tool": {"name": "image_generate"}, "result": {...details...}}`. They are kept apart from the media
(shown inline, not as cards), and the same file delivered or shown again is not media too.
A chat session's image generation runs in the background instead: the result's details say `async`,
`status: "started"` and the `taskId`, and the completion is a turn of its own: a user record OpenClaw
does not display (`display: false`, `provenance: {kind: "inter_session", sourceTool: "image_generate",
sourceSessionKey: "image_generate:<taskId>"}`) whose reply delivers the files. ClawQt's timeline never
has that turn (the ACP bridge neither streams nor replays it), so its files are credited, as images, to
the turn that started the task, and every turn OpenClaw does not display is left out (it would stop
the pairing). A started task with no completion yet is the turn's `waiting`. Its duration: from the
user record's `timestamp` to the latest assistant or tool-result `timestamp` before the next user
record.
"""

from __future__ import annotations

import dataclasses
import json
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
MAX_WRAPPED_CHARS = 256 * 1024  # a Tool Search answer read for an image result's details
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
    started_tasks: list[str] | None = None  # background generations this turn started
    completes: str | None = None  # an undisplayed completion turn: the task it completes
    hidden: bool = False  # a user record OpenClaw does not display (never in ClawQt's timeline)
    replied: bool = False  # an assistant record came after the user record (its files are written with it)

    def take(self, record: dict[str, Any]) -> None:
        stamp = _timestamp(record)
        if stamp is not None and (self.ended is None or stamp > self.ended):
            self.ended = stamp
        if record.get("role") == "toolResult":
            self._take_image_result(record)
        if record.get("role") != "assistant":
            return
        self.replied = True
        content = record.get("content")
        for block in content[:64] if isinstance(content, list) else []:
            if (
                isinstance(block, dict)
                and block.get("type") == "toolCall"
                and _calls_image_tool(block)
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
                alt = entry.get("alt")
                alt = alt if isinstance(alt, str) else ""
                self.shown = [*(self.shown or []), (ref, alt)]

    def _take_image_result(self, record: dict[str, Any]) -> None:
        """The files an `image_generate` call of this turn saved, named by its result's details."""
        if record.get("isError") is True or _ref(record.get("toolCallId")) not in (self.image_calls or ()):
            return
        details = _image_details(record)
        if details is None:
            return
        task = _ref(details.get("taskId"))
        if details.get("async") is True and details.get("status") == "started" and task is not None:
            if len(self.started_tasks or ()) < MAX_MEDIA_PER_TURN:
                self.started_tasks = [*(self.started_tasks or []), task]
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

    def completion_files(self) -> list[str]:
        """What a completion turn's reply delivered: its files, else the images it showed."""
        delivered = list(dict.fromkeys(self.delivered or []))
        return delivered or [url for url, _alt in self.shown or []]

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
    """The turns of a `sessions.get` answer, oldest first, at most the newest `MAX_TURNS`; turns
    OpenClaw does not display are left out, a background generation's files credited to its turn."""
    turns: list[_Turn] = []
    for record in messages if isinstance(messages, list) else []:
        if not isinstance(record, dict):
            continue
        if record.get("role") == "user":
            turns.append(_user_turn(record))
        elif turns:
            turns[-1].take(record)
    shown = [turn for turn in turns if not turn.hidden]
    starters = {task: turn for turn in shown for task in turn.started_tasks or ()}
    done: dict[int, list[str]] = {}
    for turn in turns:
        starter = starters.get(turn.completes or "")
        if turn.hidden and starter is not None and turn.replied:  # its record lands before its reply
            done.setdefault(id(starter), []).append(turn.completes or "")
            starter.generated = [*(starter.generated or []), *turn.completion_files()][:MAX_MEDIA_PER_TURN]
    finished = []
    for turn in shown[-MAX_TURNS:]:
        waiting = [task for task in turn.started_tasks or () if task not in done.get(id(turn), ())]
        finished.append(dataclasses.replace(turn.finish(), waiting=tuple(waiting)))
    return tuple(finished)


def _user_turn(record: dict[str, Any]) -> _Turn:
    turn = _Turn(record_text(record), _timestamp(record), hidden=record.get("display") is False)
    provenance = record.get("provenance")
    if turn.hidden and isinstance(provenance, dict) and provenance.get("sourceTool") == IMAGE_TOOL:
        source = _ref(provenance.get("sourceSessionKey")) or ""
        prefix = f"{IMAGE_TOOL}:"
        turn.completes = source[len(prefix) :] if source.startswith(prefix) else None
    return turn


def _calls_image_tool(block: dict[str, Any]) -> bool:
    """A tool call of `image_generate`: directly, or through Tool Search's `tool_call` naming it."""
    if block.get("name") == IMAGE_TOOL:
        return True
    arguments = block.get("arguments")
    target = arguments.get("id") if block.get("name") == "tool_call" and isinstance(arguments, dict) else None
    return isinstance(target, str) and (target == IMAGE_TOOL or target.endswith(f":{IMAGE_TOOL}"))


def _image_details(record: dict[str, Any]) -> dict[str, Any] | None:
    """The details of an `image_generate` result: its own, or inside Tool Search's `tool_call` answer."""
    if record.get("toolName") == IMAGE_TOOL:
        details = record.get("details")
        return details if isinstance(details, dict) else None
    if record.get("toolName") != "tool_call":
        return None
    text = record_text(record)
    if len(text) > MAX_WRAPPED_CHARS:
        return None
    try:
        wrapped = json.loads(text)
    except (ValueError, RecursionError):
        return None
    tool = wrapped.get("tool") if isinstance(wrapped, dict) else None
    result = wrapped.get("result") if isinstance(wrapped, dict) else None
    if not isinstance(tool, dict) or tool.get("name") != IMAGE_TOOL or not isinstance(result, dict):
        return None
    details = result.get("details")
    return details if isinstance(details, dict) else None


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
