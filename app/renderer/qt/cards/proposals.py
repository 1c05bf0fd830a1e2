"""The proposal cards' UI side [proposalCards]: the user's confirm or cancel, handed to the main side,
which claims the proposal before anything reaches a terminal; where the keyboard was on each card (a
row's delegate is rebuilt when it scrolls out and back); which cards the user already decided here.

Only a card the shown timeline holds as `awaiting` is passed on (the main side decides again: a card
that ended meanwhile answers False). A decided card's buttons stay disabled until its envelope says how
it ended, so a second Enter never asks twice. When the agent tried to propose and no card could be shown,
the main side says why (`ProposalNoticeEnvelope`): the notice waits for the chat it is about."""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QObject, Signal, Slot

from app.contract.envelopes import Envelope
from app.contract.host_api import HostApi, SessionsHost
from app.renderer.qt.common.notices import PROPOSAL, TURN
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.timeline.items import ProposalItem

KEPT_POSITIONS = 64  # cards whose keyboard position is remembered (the newest)
KEPT_DECIDED = 64  # cards decided here whose envelope may still be on its way
NO_LONGER = "This proposal can no longer run: it already ended"


class ProposalCards(ChatPart):
    decidedChanged = Signal()

    def __init__(
        self,
        host: HostApi,
        sessions: SessionsHost,
        session: CurrentSession,
        ops: Operations,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, ops, parent)
        self._host = host  # its `proposals` part is looked up when the user decides
        self._decided: OrderedDict[str, None] = OrderedDict()
        self._positions: OrderedDict[str, tuple[int, int]] = OrderedDict()
        sessions.subscribe(self._on_envelope)

    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind == "proposal_notice":
            key = envelope.session_key
            self._ops.notices.show(envelope.text, topic=PROPOSAL, session=key)

    def _card(self, proposal_id: str) -> ProposalItem | None:
        timeline = self._session.timeline
        card = timeline.items.get(f"proposal:{proposal_id}") if timeline is not None and proposal_id else None
        return card if isinstance(card, ProposalItem) else None

    def _can_dispatch(self, proposal_id: str) -> bool:
        card = self._card(proposal_id)
        return card is not None and card.state == "awaiting" and proposal_id not in self._decided

    def _decide(self, proposal_id: str) -> None:
        self._decided[proposal_id] = None
        while len(self._decided) > KEPT_DECIDED:
            self._decided.popitem(last=False)
        self.decidedChanged.emit()

    def _undecide(self, proposal_id: str) -> None:
        self._decided.pop(proposal_id, None)
        self.decidedChanged.emit()

    @Slot(str, int, int, bool, result=bool)
    def confirm(self, proposal_id: str, choice: int, action_index: int, run: bool) -> bool:
        """The user chose a button: choice number, action index in it, and whether to press Enter."""
        if not self._can_dispatch(proposal_id):
            return False
        self._decide(proposal_id)
        done = self._ops.call(
            "Could not run the proposal",
            lambda: self._host.proposals.confirm(proposal_id, choice, action_index, run),
            refused=lambda _: self._undecide(proposal_id),  # nothing was claimed: the user may try again
            topic=TURN,
        )
        if done is None:
            return False
        if not done:
            self._ops.notices.show(NO_LONGER, topic=TURN)
        return done

    @Slot(str)
    def cancel(self, proposal_id: str) -> None:
        """Esc on a card: the whole proposal is dismissed."""
        if not self._can_dispatch(proposal_id):
            return
        self._decide(proposal_id)
        self._ops.call(
            "Could not cancel the proposal",
            lambda: self._host.proposals.cancel(proposal_id),
            refused=lambda _: self._undecide(proposal_id),
            topic=TURN,
        )

    @Slot(str, result=bool)
    def isDecided(self, proposal_id: str) -> bool:
        return proposal_id in self._decided

    @Slot(str, result="QVariantList")
    def position(self, proposal_id: str) -> list[int]:
        """Where the keyboard was on this proposal: [card, button] (the first button of the first
        card, the recommended one, when it was never focused)."""
        return list(self._positions.get(proposal_id, (0, 0)))

    @Slot(str, int, int)
    def setPosition(self, proposal_id: str, card: int, button: int) -> None:
        self._positions[proposal_id] = (card, button)
        self._positions.move_to_end(proposal_id)
        while len(self._positions) > KEPT_POSITIONS:
            self._positions.popitem(last=False)

    decided = variant_property("QVariantList", lambda self: list(self._decided), notify=decidedChanged)
