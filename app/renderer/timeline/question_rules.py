"""The agent's questions (ACP elicitation) in a timeline: a question asked becomes a card of the turn
(`elicitation:<request id>`), once; its end sets how it ended and what was sent, once (a later end of
the same question is ignored, except a link's completion, which only marks the card done). The words
come from the main side already read and cut (app/main/elicitation); credentials are cut here as in
every other text an agent sends."""

from __future__ import annotations

from app.contract.credentials import redact_credentials
from app.contract.elicitation import QuestionAskedEnvelope, QuestionEndedEnvelope
from app.renderer.timeline.items import ElicitationItem
from app.renderer.timeline.state import TimelineState


def ask(timeline: TimelineState, envelope: QuestionAskedEnvelope) -> None:
    item_id = f"elicitation:{envelope.request_id}"
    if item_id in timeline.items:
        return
    timeline.close_segments()
    timeline.append(
        ElicitationItem(
            id=item_id,
            request_id=envelope.request_id,
            message=redact_credentials(str(envelope.message or "")),
            form=envelope.form,
            url=envelope.url,
            host=envelope.host,
            host_warning=envelope.host_warning,
            refused=envelope.refused,
        )
    )


def end(timeline: TimelineState, envelope: QuestionEndedEnvelope) -> bool:
    """False when the question is unknown here (counted as ignored by the reducer)."""
    item = timeline.items.get(f"elicitation:{envelope.request_id}")
    if not isinstance(item, ElicitationItem):
        return False
    if envelope.reason == "completed":
        item.completed = True
    elif item.status == "waiting":
        item.status = envelope.action
        item.reason = envelope.reason
        item.answers = tuple((label, redact_credentials(value)) for label, value in envelope.answers)
    else:
        return True
    timeline.touch(item)
    return True
