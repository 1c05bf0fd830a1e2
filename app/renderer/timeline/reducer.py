"""The reducer: routing envelopes in, a flat timeline of items out, plus index-based events.

One Timeline per session key and generation. It owns its items and patches them in place (like
Zed's thread model): applying an update costs O(1) amortized in the length of the history, and every
`apply` returns the events the views need: row changes, and the metadata fields that changed. Rules:
chat-timeline.md ("Renderer: the reducer"); prose in `message_rules.py`, tools and the plan in
`tool_rules.py`, metadata in `metadata.py`; each rule pinned by a test in
tests/unit/timeline/test_reducer_rules.py. Total: no envelope an agent can cause makes it raise.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from app.contract.acp_fields import METADATA_UPDATES
from app.contract.credentials import redact_credentials
from app.contract.elicitation import QuestionAskedEnvelope, QuestionEndedEnvelope
from app.contract.envelopes import (
    PermissionRequestEnvelope,
    PermissionResolvedEnvelope,
    PromptSentEnvelope,
    PromptSettledEnvelope,
    SessionUpdateEnvelope,
    TerminalOutputEnvelope,
    ToolCallsCancelledEnvelope,
    TranscriptSupplementEnvelope,
)
from app.contract.hidden_context import strip_hidden_context
from app.contract.proposals import ProposalEnvelope
from app.contract.usage import turn_tokens
from app.renderer.timeline.items import MessageSegment, PermissionItem, ToolCall, TurnEnd
from app.renderer.timeline.message_rules import MessageRules
from app.renderer.timeline.metadata import apply_metadata
from app.renderer.timeline.parts import AttachmentPart, MarkdownPart, Part, content_to_part
from app.renderer.timeline.question_rules import ask, end
from app.renderer.timeline.rows import MetadataChanged, Row, TimelineEvent
from app.renderer.timeline.state import TurnTiming
from app.renderer.timeline.tool_rules import ToolRules
from app.renderer.timeline.transcript_rules import apply_transcript_supplement

if TYPE_CHECKING:
    from app.contract.acp import SessionUpdate


_ATTACHED_BLOCKS = ("resource_link", "image", "resource")
# the envelope kinds a timeline reduces (the others are about the agent, not a session's timeline)
TIMELINE_KINDS = frozenset(
    {
        "session_update",
        "replay",
        "permission_request",
        "permission_resolved",
        "question_asked",
        "question_ended",
        "prompt_sent",
        "prompt_settled",
        "tool_calls_cancelled",
        "terminal_output",
        "transcript_supplement",
        "proposal",
    }
)


@contextmanager
def _no_collection() -> Iterator[None]:
    """A replay allocates ~10 objects per update and frees none, and grouping it makes a row per block:
    the collector's scans would find nothing to free. Left on, they also age the whole history into
    the oldest generation mid-load, and the next full collection (during live updates) scans it all."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


class Timeline(MessageRules, ToolRules):
    """The in-memory timeline of one session (never persisted)."""

    def __init__(self, session_key: str, generation: int, *, cwd_known: bool = True) -> None:
        super().__init__(session_key, generation, cwd_known=cwd_known)
        self._init_proposals()

    @property
    def rows(self) -> list[Row]:
        return self.grouping.rows

    @property
    def live_item(self) -> str | None:
        """The item that streams: the newest one, while a turn runs."""
        return self.order[-1] if self.live_message_id is not None and self.order else None

    # --- entry points ----------------------------------------------------------------------------
    def apply(self, envelope: Any) -> list[TimelineEvent]:
        """Apply one envelope; returns its events (empty when ignored)."""
        self._changes = []
        self._dispatch(envelope)
        return self._changes

    def apply_batch(self, envelopes: Iterable[Any]) -> list[TimelineEvent]:
        """A load's replay at once: reduce everything, then group once (one removal + one insertion)."""
        self.begin_replay()
        self.replay(envelopes)
        return self.end_replay()

    def begin_replay(self) -> None:
        """A load's replay, reduced as its parts arrive (`replay`) and grouped once at the end
        (`end_replay`); nothing else is applied to the timeline in between."""
        self._changes = []
        self._batch = True

    def replay(self, envelopes: Iterable[Any]) -> None:
        with _no_collection():
            for envelope in envelopes:
                self._dispatch(envelope)

    def end_replay(self) -> list[TimelineEvent]:
        """The replay is complete: place the kept cards, group, and say which metadata changed."""
        with _no_collection():
            for item in self.items.values():
                for part in getattr(item, "parts", ()):
                    if isinstance(part, MarkdownPart):
                        part.compact()
            self._place_kept_proposals()
            meta = list(dict.fromkeys(e for e in self._changes if isinstance(e, MetadataChanged)))
            self._batch = False
            return [*self.grouping.rebuild(self.order), *meta]

    def add_optimistic(
        self, message_id: str, text: str, attachments: Iterable[Part] = (), sent_at: float | None = None
    ) -> list[TimelineEvent]:
        """The user's message, shown at once as `<message_id>:0` until (if ever) the agent echoes it;
        its turn is live until the prompt settles."""
        self._changes = []
        self._add_optimistic(message_id, text, attachments, sent_at)
        return self._changes

    def _add_optimistic(
        self, message_id: str, text: str, attachments: Iterable[Part], sent_at: float | None
    ) -> None:
        self.close_segments()
        segment_id = f"{message_id}:0"
        if segment_id in self.items:
            return
        segment = MessageSegment(id=segment_id, role="user", message_id=message_id, optimistic=True)
        if text.strip():
            segment.parts.append(MarkdownPart([text.strip()]))
        segment.parts.extend(attachments)
        self.segment_counts[message_id] = 1
        self.open_segments[message_id] = segment_id
        self.optimistic[message_id] = segment_id
        self.timings[message_id] = TurnTiming(sent_at)
        self.live_message_id = message_id
        self.append(segment)

    # --- dispatch --------------------------------------------------------------------------------
    def _dispatch(self, envelope: Any) -> None:
        if type(envelope) is ProposalEnvelope:  # a card keeps the generation it was made in
            self._proposal(envelope)
            return
        if (
            getattr(envelope, "session_key", None) != self.session_key
            or getattr(envelope, "generation", None) != self.generation
        ):
            self.ignored += 1
            return
        if type(envelope) is SessionUpdateEnvelope:  # most envelopes by far: straight to the update
            update = envelope.notification.get("update") if type(envelope.notification) is dict else None
            if type(update) is dict:
                self.arrived_at = envelope.received_at
                self._update(update, envelope.historical)  # type: ignore[arg-type]
                return
        match envelope:
            case SessionUpdateEnvelope(notification={"update": dict() as update}, historical=historical):
                self.arrived_at = envelope.received_at
                self._update(update, historical)  # type: ignore[arg-type]
            case PermissionRequestEnvelope():
                self._permission_request(envelope)
            case PermissionResolvedEnvelope():
                self._permission_resolved(envelope)
            case QuestionAskedEnvelope():
                ask(self, envelope)
            case QuestionEndedEnvelope():
                self.ignored += not end(self, envelope)
            case PromptSentEnvelope():
                self._prompt_sent(envelope)
            case PromptSettledEnvelope():
                self._prompt_settled(envelope)
            case ToolCallsCancelledEnvelope():
                self._tools_cancelled(envelope)
            case TranscriptSupplementEnvelope():
                apply_transcript_supplement(self, envelope)
            case TerminalOutputEnvelope():
                owner = self.terminals.apply_client_output(
                    envelope.terminal_id,
                    envelope.data,
                    envelope.exited,
                    envelope.exit_code,
                    envelope.signal,
                    envelope.note,
                )
                if owner is not None and owner.id in self.items:
                    self.touch(owner)
            case _:
                self.ignored += 1

    def _update(self, update: SessionUpdate, historical: bool) -> None:
        match update.get("sessionUpdate"):
            case "agent_message_chunk":
                self._message("assistant", update, historical)  # type: ignore[arg-type]
            case "user_message_chunk":
                self._message("user", update, historical)  # type: ignore[arg-type]
            case "agent_thought_chunk":
                self._thought(update, historical)  # type: ignore[arg-type]
            case "tool_call" | "tool_call_update":
                self._tool(update, historical)  # type: ignore[arg-type]
            case "tool_call_content_chunk":
                self._tool_content_chunk(update, historical)
            case "plan":
                self._plan(redact_credentials(update), historical)
            case str() as kind if kind in METADATA_UPDATES:  # titles, commands, modes, options: cut too
                changed = apply_metadata(self.meta, redact_credentials(update))
                if changed is not None:
                    self._changes.append(MetadataChanged(changed))
            case "terminal_update" | "terminal_output_chunk":
                understood, owner = self.terminals.apply_v2(update)  # type: ignore[arg-type]
                if not understood:
                    self.ignored += 1
                elif owner is not None and owner.id in self.items:
                    self.touch(owner)
            case _:
                self.ignored += 1

    # --- envelopes from the main side -----------------------------------------------------------
    def _permission_request(self, envelope: PermissionRequestEnvelope) -> None:
        item_id = f"permission:{envelope.request_id}"
        if item_id in self.items:
            return
        self.close_segments()
        options = [redact_credentials(o) for o in envelope.options if isinstance(o, dict)]
        tool_call = redact_credentials(envelope.tool_call) if isinstance(envelope.tool_call, dict) else {}
        hidden = envelope.hidden_options if type(envelope.hidden_options) is int else 0
        self.append(
            PermissionItem(
                id=item_id,
                request_id=envelope.request_id,
                tool_call=tool_call,
                options=options,
                hidden_options=hidden,
                request_text=redact_credentials(str(envelope.request_text or "")),
                request_kind=str(envelope.request_kind or ""),
            )
        )
        tool = self.items.get(f"tool:{tool_call.get('toolCallId')}")
        if isinstance(tool, ToolCall):  # the call's card shows the request (presenter: permission_card.py)
            tool.permission_id = item_id
            self.touch(tool)

    def _permission_resolved(self, envelope: PermissionResolvedEnvelope) -> None:
        item = self.items.get(f"permission:{envelope.request_id}")
        if not isinstance(item, PermissionItem) or item.status != "pending":
            self.ignored += item is None
            return
        item.status = "selected" if envelope.outcome == "selected" else "cancelled"
        item.selected_option = envelope.option_id
        item.rule_id, item.rule_words = str(envelope.rule_id or ""), str(envelope.rule_words or "")
        self.touch(item)
        tool = self.items.get(f"tool:{item.tool_call.get('toolCallId')}")
        if isinstance(tool, ToolCall) and tool.permission_id == item.id:
            self.touch(tool)  # the answer folds in its card's footer too

    def _prompt_sent(self, envelope: PromptSentEnvelope) -> None:
        """The prompt as sent: the user's message, unless it is already shown (optimistically)."""
        if envelope.client_message_id in self.optimistic:
            return
        blocks = [b for b in envelope.prompt if isinstance(b, dict)]
        texts = [b["text"] for b in blocks if b.get("type") == "text" and isinstance(b.get("text"), str)]
        texts = [shown for shown in map(strip_hidden_context, texts) if shown]  # ClawQt's machine context
        parts = [content_to_part(b, "user") for b in blocks if b.get("type") in _ATTACHED_BLOCKS]
        attachments = [p for p in parts if isinstance(p, AttachmentPart)]
        self._add_optimistic(envelope.client_message_id, "\n".join(texts), attachments, None)

    def _prompt_settled(self, envelope: PromptSettledEnvelope) -> None:
        timing = self.timings.setdefault(envelope.client_message_id, TurnTiming(None))
        timing.elapsed_s = envelope.elapsed_s
        timing.stopped = envelope.stop_reason == "cancelled" or (envelope.stopped and envelope.error is None)
        timing.unconfirmed = envelope.unconfirmed is True
        timing.tokens = turn_tokens(envelope.usage)
        if self.live_message_id == envelope.client_message_id:
            self.live_message_id = None
            self.terminals.drop_parked()
        segment_id = self.optimistic.get(envelope.client_message_id)
        segment = self.items.get(segment_id) if segment_id else None
        if (
            envelope.error is not None
            and isinstance(segment, MessageSegment)
            and not segment.echoed
            and self.order
            and self.order[-1] == segment.id
        ):
            # never echoed and nothing answered it: it did not reach the agent. (Our addition to
            # the rule: once the agent replied, the message evidently arrived and stays.)
            self.remove(segment.id)
            self.optimistic.pop(envelope.client_message_id, None)
            return
        if (
            isinstance(segment, MessageSegment)
            and timing.stopped
            and self.order
            and self.order[-1] == segment.id
        ):
            # stopped before any reply: a turn of its own says so (its footer: "Stopped after 2 s")
            self.close_segments()
            self.append(TurnEnd(id=f"stopped:{envelope.client_message_id}"))
        elif isinstance(segment, MessageSegment) and not self._batch:
            self.turn_settled(segment.id)

    def _tools_cancelled(self, envelope: ToolCallsCancelledEnvelope) -> None:
        for tool_call_id in envelope.tool_call_ids:
            tool = self.items.get(f"tool:{tool_call_id}")
            if isinstance(tool, ToolCall) and tool.status in ("pending", "running"):
                tool.status = "cancelled"
                self.touch(tool)
