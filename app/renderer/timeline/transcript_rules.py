"""OpenClaw transcript supplements (seed 003, "bounded transcript exceptions") applied to a timeline:
media OpenClaw stripped from a reply become marked compatibility attachments (`media-transcript`) of
the matched turn's last assistant message, images its `image_generate` made become inline images of
that message (an inline-image experience, never a card), and a reloaded turn without client timing
gets the transcript's whole-turn duration ("Took N s").

Only an unambiguous match counts: a live supplement names its prompt (`client_message_id`); a load's
turns are paired with the timeline's user turns from the newest backwards while the user texts agree
(a prompt of images only reads as no text on both sides), and the pairing stops at the first
disagreement. Nothing here creates text, tool cards or turns. A
reply that was only a `MEDIA:` line leaves its turn without an assistant message (OpenClaw stripped the
line): once the turn is not live, the cards get an attachment-only segment of their own at the turn's
end (no text, like a reply that is only a resource_link): appended when it is the last turn, else
placed inside the timeline (only the rows around it change). Memory only, like the timeline.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from app.contract.envelopes import TranscriptSupplementEnvelope, TranscriptTurn, transcript_match_text
from app.contract.openclaw_prompts import prompt_record_text
from app.renderer.timeline.items import MessageSegment
from app.renderer.timeline.parts import Attachment, AttachmentPart, ImagePart, MarkdownPart, basename_of
from app.renderer.timeline.state import TimelineState, TurnTiming

MAX_SUPPLEMENT_TURNS = 200
MAX_TURN_MEDIA = 32


def _user_turns(timeline: TimelineState) -> list[tuple[str, list[str]]]:
    """(message id of the user message that opens it, the turn's item ids), in order: each user
    message opens a turn, also one that follows another with no reply between (a reply OpenClaw
    stripped to nothing); segments of one message stay one turn."""
    turns: list[tuple[str, list[str]]] = []
    previous: str | None = None  # the message id of the item before, when it is a user segment
    for item_id in timeline.order:
        item = timeline.items.get(item_id)
        message = item.message_id if isinstance(item, MessageSegment) and item.role == "user" else None
        if message is not None and message != previous:
            turns.append((message, [item_id]))
        elif turns:
            turns[-1][1].append(item_id)
        previous = message
    return turns


def _own_items(timeline: TimelineState, item_ids: list[str]) -> list[str]:
    """A prompt's turn up to the next prompt of ours: a prompt sent before the first one was
    answered joins its user group, and its reply is not the first one's."""
    prompts = set(timeline.optimistic.values())
    for index, item_id in enumerate(item_ids[1:], start=1):
        if item_id in prompts:
            return item_ids[:index]
    return item_ids


def _turn_text(timeline: TimelineState, item_ids: list[str]) -> str:
    texts = []
    for item_id in item_ids:
        item = timeline.items.get(item_id)
        if not (isinstance(item, MessageSegment) and item.role == "user"):
            break
        texts.append(_record_text(item))
    return transcript_match_text("\n".join(texts))


def _record_text(segment: MessageSegment) -> str:
    """The text OpenClaw keeps for this message, rebuilt from its parts as its bridge writes a prompt
    (a replayed prompt of attachments only comes back as its resource blocks, not as that text)."""
    blocks: list[dict[str, Any]] = []
    for part in segment.parts:
        if isinstance(part, MarkdownPart):
            blocks.append({"type": "text", "text": part.text})
        elif isinstance(part, AttachmentPart) and part.attachment.embedded is not None:
            blocks.append({"type": "resource", "resource": {"text": part.attachment.embedded.text or ""}})
        elif isinstance(part, AttachmentPart) and part.attachment.source == "acp-resource":
            attachment = part.attachment  # an image block leaves no text; a resource link its line
            if not attachment.image_block:
                blocks.append({"type": "resource_link", "uri": attachment.uri, "title": attachment.title})
    return prompt_record_text(blocks)


def _supplement_turn(
    timeline: TimelineState, message_id: str, item_ids: list[str], turn: TranscriptTurn
) -> None:
    """Apply one turn's facts to its items."""
    timing = timeline.timings.get(message_id)
    if (
        turn.duration_s is not None
        and (timing is None or timing.elapsed_s is None)
        and timeline.live_message_id != message_id
    ):
        timeline.timings[message_id] = TurnTiming(None, elapsed_s=turn.duration_s)
        timeline.turn_settled(item_ids[0])  # its footer now says "Took N s"
    if not turn.media and not turn.images:
        return
    segments = [timeline.items.get(i) for i in item_ids]
    target = next(
        (s for s in reversed(segments) if isinstance(s, MessageSegment) and s.role == "assistant"), None
    )
    known = {
        part.attachment.uri
        for item in segments
        for part in getattr(item, "parts", ())
        if isinstance(part, AttachmentPart)
    }
    shown = {
        part.uri for item in segments for part in getattr(item, "parts", ()) if isinstance(part, ImagePart)
    }
    parts: list[AttachmentPart | ImagePart] = []
    for ref in turn.images[:MAX_TURN_MEDIA]:
        uri = _image_uri(ref)
        if uri is not None and uri not in shown:
            shown.add(uri)
            parts.append(ImagePart(uri, None))
    for uri in turn.media[:MAX_TURN_MEDIA]:
        if uri not in known:
            known.add(uri)
            parts.append(AttachmentPart(Attachment(basename_of(uri), uri, source="media-transcript")))
    if not parts:
        return
    if target is not None:
        target.parts.extend(parts)
        timeline.touch(target)
    elif timeline.live_message_id != message_id:
        _media_segment(timeline, message_id, parts, item_ids[-1])


def _image_uri(ref: str) -> str | None:
    """A generated image's reference as an inline image shows it: a local path as its file URI."""
    if ref.startswith("/"):
        return "file://" + quote(ref)
    return ref if ref.lower().startswith(("file://", "https://", "http://")) else None


def _media_segment(
    timeline: TimelineState, message_id: str, parts: list[AttachmentPart | ImagePart], after: str
) -> None:
    """An attachment-only assistant segment at the end of its turn, right after the turn's last item
    (after any tool call or stop marker, so inside its group, before its footer row): appended to the
    last turn, placed inside the timeline for an older one (a user group it follows splits around it).
    Never an open segment: a late chunk starts a segment of its own."""
    segment_id = f"media-transcript:{message_id}"
    while segment_id in timeline.items:  # never reuse an id
        segment_id += "+"
    segment = MessageSegment(id=segment_id, role="assistant", message_id=segment_id, parts=list(parts))
    if timeline.order and timeline.order[-1] == after:
        timeline.append(segment)
    else:
        timeline.place_after(after, segment)


def apply_transcript_supplement(timeline: TimelineState, envelope: TranscriptSupplementEnvelope) -> None:
    """Attach the supplement to the turns it unambiguously matches; ignore the rest."""
    turns = [t for t in envelope.turns[-MAX_SUPPLEMENT_TURNS:] if isinstance(t, TranscriptTurn)]
    user_turns = _user_turns(timeline)
    if envelope.client_message_id is not None:
        segment_id = timeline.optimistic.get(envelope.client_message_id)
        found = next((t for t in user_turns if segment_id in t[1][:1]), None)
        if found is None or len(turns) != 1:
            timeline.ignored += 1
            return
        _supplement_turn(timeline, envelope.client_message_id, _own_items(timeline, found[1]), turns[0])
        return
    for (message_id, item_ids), turn in zip(reversed(user_turns), reversed(turns), strict=False):
        if _turn_text(timeline, item_ids) != turn.user_text:
            break
        _supplement_turn(timeline, message_id, item_ids, turn)
