"""`branching` in QML: "Continue from here" and "Edit and resend" on a user message, with the chat's
own agent or another one, and where the shown chat came from. The transcript is made here from the
shown timeline (`handover`); the main side decides how the new chat starts (a fork or a transcript)
and remembers the link. The chat continued is never changed: the new chat opens beside it, with the
chosen message back in its composer for Edit and resend."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.branches import BranchesHost, BranchOrigin, BranchRequest
from app.contract.envelopes import LoadResult
from app.contract.local_stores import StringStore
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.timeline.handover import handover


def origin_map(origin: BranchOrigin | None) -> dict[str, Any]:
    """What the banner of a chat that continues another shows ({} for any other chat)."""
    if origin is None:
        return {}
    count = f"{origin.exchanges} message" + ("" if origin.exchanges == 1 else "s")
    how = "forked by the agent" if origin.forked else f"{count} handed over"
    return {
        "sourceKey": origin.source_key,
        "title": origin.source_title or "another chat",
        "agent": origin.source_agent,
        "how": how,
        "waiting": not origin.handed_over,  # the transcript goes with the first message
    }


class Branching(QObject):
    changed = Signal()

    def __init__(
        self,
        branches: BranchesHost,
        session: CurrentSession,
        drafts: StringStore,
        ops: Operations,
        *,
        title: Callable[[], str],
        agent_label: Callable[[], str],
        agent_names: Callable[[], dict[str, str]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._branches = branches
        self._session = session
        self._drafts = drafts
        self._ops = ops
        self._title = title
        self._agent_label = agent_label
        self._agent_names = agent_names
        self._origin: dict[str, Any] = {}
        session.shown.connect(self._on_shown)
        session.sessionChanged.connect(self.changed)  # a trace shown or closed

    origin = variant_property("QVariantMap", lambda self: self._origin, notify=changed)
    # a replayed trace: no message of it is a checkpoint (nothing continues from it or restores to it)
    readOnly = Property(bool, lambda self: self._session.readOnly, notify=changed)
    agents = variant_property(
        "QVariantList",
        lambda self: [{"id": agent_id, "name": name} for agent_id, name in self._agent_names().items()],
        notify=changed,
    )

    def _on_shown(self, result: LoadResult) -> None:
        self._origin = origin_map(self._branches.origin(result.session_key))
        self.changed.emit()

    def refresh(self) -> None:
        """The shown chat's first message went (its transcript with it): the banner says so."""
        key = self._session.sessionKey
        self._origin = origin_map(self._branches.origin(key)) if key else {}
        self.changed.emit()

    def origin_words(self) -> str:
        """Where the shown chat came from, as a sentence (its export says it; "" for no branch)."""
        origin = self._origin
        if not origin:
            return ""
        agent = f" with {origin['agent']}" if origin.get("agent") else ""
        return f"It continues \u201c{origin['title']}\u201d{agent} ({origin['how']})."

    @Slot(str, str)
    def continueFrom(self, message_id: str, agent_id: str) -> None:
        """A new chat with the conversation up to `message_id` and its answer (`agent_id` "": the
        chat's own agent)."""
        self._branch(message_id, agent_id, edit=False)

    @Slot(str, str)
    def editAndResend(self, message_id: str, agent_id: str) -> None:
        """A new chat with the conversation before `message_id`, that message back in the composer."""
        self._branch(message_id, agent_id, edit=True)

    @Slot()
    def openOrigin(self) -> None:
        if self._origin.get("sourceKey"):
            self._session.openSession(self._origin["sourceKey"])

    def _branch(self, message_id: str, agent_id: str, *, edit: bool) -> None:
        timeline, key = self._session.timeline, self._session.sessionKey
        title, agent = self._title(), self._agent_label()
        try:
            if timeline is None or self._session.readOnly:
                raise KeyError(message_id)
            made = handover(timeline, message_id, with_its_turn=not edit, title=title, agent=agent)
        except KeyError:
            self._ops.notices.show("That message is not in the chat shown, so nothing continues from it.")
            return
        request = BranchRequest(
            source_key=key,
            source_title=title,
            message_id=message_id,
            agent_id=agent_id,
            cwd=self._session.workspace() or "",
            handover=made.text,
            exchanges=made.exchanges,
            at_end=made.at_end and not self._session.busy,  # a fork mid-turn would carry half a turn
        )
        draft = made.message_text if edit else ""

        def keep_draft(result: LoadResult) -> None:
            if draft:
                self._drafts.set(result.session_key, draft)

        self._ops.spawn(
            self._session.open_new(
                self._branches.branch(request),
                "Starting the new chat\u2026",
                "Could not continue in a new chat",
                keep_draft,
            )
        )
