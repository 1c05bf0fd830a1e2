"""Which chats wait for the user, as the sidebar marks them ("Needs you"): a permission request or a
question of its agent not answered yet, or a card of its proposed terminal actions not decided yet,
in a chat that may not be on screen. Fed the agents' envelopes; says whether anything changed."""

from __future__ import annotations

from app.contract.elicitation import QuestionAskedEnvelope, QuestionEndedEnvelope
from app.contract.envelopes import PermissionRequestEnvelope, PermissionResolvedEnvelope
from app.contract.proposals import ProposalEnvelope

# what the agent asks of the user: a chat waits on the user while one of these is open
Asking = (
    PermissionRequestEnvelope | PermissionResolvedEnvelope | QuestionAskedEnvelope | QuestionEndedEnvelope
)


class WaitingChats:
    def __init__(self) -> None:
        self._asking: dict[str, set[str]] = {}  # session key -> its pending requests' ids
        self._proposing: dict[str, set[str]] = {}  # session key -> its proposals awaiting the user

    def asking(self, envelope: Asking) -> bool:
        """A permission or a question waits for the user, or ended (answered, or by a rule)."""
        key, request_id = envelope.session_key, envelope.request_id
        if envelope.kind in ("permission_request", "question_asked"):
            self._asking.setdefault(key, set()).add(request_id)
        else:
            pending = self._asking.get(key, set())
            pending.discard(request_id)
            if not pending:
                self._asking.pop(key, None)
        return True

    def proposal(self, envelope: ProposalEnvelope) -> bool:
        """A proposal card waits for the user's decision, or ended (decided, superseded, expired...)."""
        key, proposal_id = envelope.session_key, envelope.proposal_id
        waiting = self._proposing.get(key, set())
        before = proposal_id in waiting
        if envelope.state == "awaiting":
            self._proposing.setdefault(key, set()).add(proposal_id)
        else:
            waiting.discard(proposal_id)
            if not waiting:
                self._proposing.pop(key, None)
        return before != (envelope.state == "awaiting")

    def needs_you(self, key: str) -> bool:
        return bool(self._asking.get(key) or self._proposing.get(key))

    def why(self, key: str) -> str:
        """What the chat waits for, as its row says it to assistive technology."""
        reasons = []
        if self._asking.get(key):
            reasons.append("the agent asks for permission")
        if self._proposing.get(key):
            reasons.append("a proposed terminal action waits for your decision")
        return " and ".join(reasons)

    def forget(self, key: str) -> None:
        self._asking.pop(key, None)
