"""The recommendation card in the real window, with the scripted agent as a real subprocess: the agent
runs the proposal CLI (its tool call never shows), the main side's ProposalEnvelopes make and end the
card, and the user decides with real key events.

`ProposalsStandIn` plays the main side's proposal service (`HostApi.proposals`) through the chat
service's own envelope path: built in `open_window`, the one line to change for the real service."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from PySide6.QtCore import Qt

from app.contract.proposals import ProposalAction, ProposalChoice, ProposalEnvelope
from app.main.agents.command import AgentCommand
from app.main.host.make import Host, make_host
from app.main.sessions.service import ChatService
from app.renderer.timeline.items import MessageSegment
from tests.conftest import scripted_agent_argv
from tests.ui_harness import find_all, focused

CHANNEL = f"v1.{'c' * 32}.{'1' * 32}"
TARGET = "bash — ~/work"
CHOICES = (
    ProposalChoice(1, "List", "Look", (ProposalAction("send", "ls"),)),
    ProposalChoice(
        2,
        "Run the tests",
        "They say what broke",
        (ProposalAction("send", "pytest -q"), ProposalAction("open", cwd="/work")),
    ),
)


class ProposalsStandIn:
    """Answers like the main side's service: an awaiting proposal is claimed once (then its card ends
    `confirmed` or `cancelled`), anything else answers False; every call is recorded."""

    def __init__(self, service: ChatService) -> None:
        self._service = service
        self.proposals: dict[str, ProposalEnvelope] = {}
        self.calls: list[tuple[Any, ...]] = []

    def propose(self, envelope: ProposalEnvelope) -> None:
        self.proposals[envelope.proposal_id] = envelope
        self._service._emit(envelope)

    def end(self, proposal_id: str, state: str, reason: str = "") -> None:
        envelope = dataclasses.replace(self.proposals[proposal_id], state=state, reason=reason)
        self.proposals[proposal_id] = envelope
        self._service._emit(envelope)

    def confirm(self, proposal_id: str, choice: int, action_index: int, run: bool = True) -> bool:
        self.calls.append(("confirm", proposal_id, choice, action_index, run))
        known = self.proposals.get(proposal_id)
        if known is None or known.state != "awaiting":
            return False
        self.end(proposal_id, "confirmed")
        return True

    def cancel(self, proposal_id: str) -> None:
        self.calls.append(("cancel", proposal_id))
        known = self.proposals.get(proposal_id)
        if known is not None and known.state == "awaiting":
            self.end(proposal_id, "cancelled")


def with_proposals(host: Host, proposals: Any) -> Host:
    """The host with the stand-in as its `proposals` part."""
    return dataclasses.replace(host, proposals=proposals)


async def open_window(ui) -> tuple[Any, ProposalsStandIn]:
    service = ChatService(AgentCommand(scripted_agent_argv(), "flag", "ui test"), cwd=str(ui.tmp_path))
    host = make_host(service)
    proposals = ProposalsStandIn(service)  # the real service: app.main.proposals.service, when it exists
    window = await ui.open_host(with_proposals(host, proposals))
    return window, proposals


async def run_cli(ui, window, *, hold: bool = False) -> str:
    """The agent runs the proposal CLI in a turn (ended, or still running with `hold`); its user
    message id (the proposal's turn)."""
    objects = window.objects
    await ui.type_and_send(window, f"propose {CHANNEL}" + (" hold" if hold else ""))
    await ui.until(lambda: "assistant-text" in ui.kinds(window))
    if not hold:
        await ui.until(lambda: not objects.session.busy, 15)
    timeline = objects.session.timeline
    return next(
        i.message_id
        for i in reversed(list(timeline.items.values()))
        if isinstance(i, MessageSegment) and i.role == "user"
    )


async def propose(ui, window, proposals: ProposalsStandIn, turn: str, proposal_id: str = "p1"):
    """The main side accepted the CLI's request: the card appears."""
    timeline = window.objects.session.timeline
    envelope = ProposalEnvelope(
        timeline.session_key,
        timeline.generation,
        proposal_id,
        turn,
        "terminal_agent",
        CHOICES,
        2,
        "awaiting",
        "term-1",
        TARGET,
        channel=CHANNEL,
    )
    proposals.propose(envelope)
    await ui.until(lambda: ui.find(window, "proposalButton_2_0") is not None)
    await ui.frames(window, 2)
    return envelope


async def focus(ui, window, name: str) -> None:
    ui.item(window, name).forceActiveFocus()
    await ui.until(lambda: focused(window) == name)


def test_the_card_shows_and_the_keyboard_moves_between_cards_and_actions_and_confirms(ui):
    async def scenario():
        window, proposals = await open_window(ui)
        turn = await run_cli(ui, window)
        assert "tool" not in ui.kinds(window) and "tool-group" not in ui.kinds(window)  # the CLI's call
        await propose(ui, window, proposals, turn)
        assert ui.kinds(window) == ["user", "assistant-text", "proposal", "turn-footer"]
        entry = ui.role(window, ui.rows(window, "proposal")[0], "proposal")
        assert [c["choice"] for c in entry["cards"]] == [2, 1]  # the recommended one first
        labels = find_all(ui.item(window, "proposalChoice_2"), "proposalRecommended")
        assert [label.property("visible") for label in labels] == [True]
        labels = find_all(ui.item(window, "proposalChoice_1"), "proposalRecommended")
        assert [label.property("visible") for label in labels] == [False]
        recommended, other = ui.item(window, "proposalChoice_2"), ui.item(window, "proposalChoice_1")
        assert recommended.property("y") < other.property("y")
        run = ui.item(window, "proposalButton_2_0")
        assert run.property("text") == "Run command" and run.property("enabled")
        assert ui.item(window, "proposalButton_2_1").property("text") == "Insert in terminal"
        assert ui.item(window, "proposalButton_2_2").property("text") == "Open tab in /work"
        commands = [c.property("text") for c in find_all(window.root.contentItem(), "proposalCommand")]
        assert sorted(c for c in commands if c) == ["ls", "pytest -q"]  # verbatim (open has none)
        assert ui.item(window, "proposalQuestion").property("text") == "Run a command in your terminal?"
        await ui.screenshots(window, "46-proposal-card")

        await focus(ui, window, "proposalButton_2_0")
        await ui.until(lambda: recommended.property("focused") and not other.property("focused"))  # tinted
        await ui.screenshots(window, "46b-proposal-card-focused-choice")
        moves = [
            (Qt.Key.Key_Right, "proposalButton_2_1"),
            (Qt.Key.Key_Right, "proposalButton_2_2"),
            (Qt.Key.Key_Right, "proposalButton_2_2"),  # the last button stays
            (Qt.Key.Key_Down, "proposalButton_1_1"),  # the next card, its last button (it has two)
            (Qt.Key.Key_Down, "proposalButton_1_1"),  # the last card stays
            (Qt.Key.Key_Left, "proposalButton_1_0"),
            (Qt.Key.Key_Up, "proposalButton_2_0"),
            (Qt.Key.Key_Right, "proposalButton_2_1"),
        ]
        for key, expected in moves:
            await ui.key(window, key)
            assert focused(window) == expected, (key, focused(window))
            choice = expected.split("_")[1]
            assert ui.item(window, f"proposalChoice_{choice}").property("focused")  # the row the keys are in
        await ui.key(window, Qt.Key.Key_Return)  # "Insert in terminal": choice 2, action 0, no Enter
        await ui.until(lambda: proposals.calls)
        assert proposals.calls == [("confirm", "p1", 2, 0, False)]
        state = ui.item(window, "proposalState")
        await ui.until(lambda: state.property("text") == f"Confirmed: sent to {TARGET}")
        assert not ui.item(window, "proposalButton_2_0").property("enabled")
        await ui.key(window, Qt.Key.Key_Return)
        assert len(proposals.calls) == 1  # decided: never asked twice

    ui.run(scenario())


def test_enter_runs_the_focused_command_and_esc_dismisses_the_proposal_not_the_running_turn(ui):
    async def scenario():
        window, proposals = await open_window(ui)
        objects = window.objects
        turn = await run_cli(ui, window, hold=True)
        await propose(ui, window, proposals, turn, "p1")
        await focus(ui, window, "proposalButton_1_0")
        await ui.key(window, Qt.Key.Key_Enter)  # the keypad's Enter too
        assert proposals.calls == [("confirm", "p1", 1, 0, True)]

        await propose(ui, window, proposals, turn, "p2")
        await ui.until(lambda: len(ui.rows(window, "proposal")) == 2)
        await ui.frames(window, 2)
        card = next(r for r in ui.rows(window, "proposal") if "proposal:p2" in r.item_ids)
        assert ui.role(window, card, "proposal")["awaiting"]
        buttons = [
            b for b in find_all(window.root.contentItem(), "proposalButton_2_1") if b.property("enabled")
        ]
        assert len(buttons) == 1  # p1's are disabled (confirmed), p2's wait
        buttons[0].forceActiveFocus()
        await ui.until(lambda: focused(window) == "proposalButton_2_1")
        await ui.key(window, Qt.Key.Key_Escape)
        assert proposals.calls[-1] == ("cancel", "p2")
        await asyncio.sleep(0.2)  # time for what must not happen to show: an absence has no event
        assert objects.session.busy  # Esc on the card did not stop the turn
        texts = [s.property("text") for s in find_all(window.root.contentItem(), "proposalState")]
        assert sorted(texts) == ["Cancelled", f"Confirmed: sent to {TARGET}"]
        await ui.key(window, Qt.Key.Key_Escape)  # the card's buttons are disabled: Esc is Stop again
        await ui.until(lambda: not objects.session.busy, 10)
        assert proposals.calls[-1] == ("cancel", "p2") and len(proposals.calls) == 2

    ui.run(scenario())


def test_a_superseded_card_says_so_and_cannot_dispatch(ui):
    async def scenario():
        window, proposals = await open_window(ui)
        objects = window.objects
        turn = await run_cli(ui, window)
        await propose(ui, window, proposals, turn)
        proposals.end("p1", "superseded")
        state = await ui.until(lambda: ui.find(window, "proposalState"))
        await ui.until(lambda: state.property("text") == "Superseded by a newer message")
        buttons = [ui.item(window, f"proposalButton_{c}_{b}") for c, b in ((2, 0), (2, 1), (2, 2), (1, 0))]
        await ui.until(lambda: not any(b.property("enabled") for b in buttons))
        buttons[0].forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        assert not objects.proposal_cards.confirm("p1", 2, 0, True)  # the renderer does not even ask
        assert proposals.calls == []
        await ui.screenshots(window, "47-proposal-card-superseded")

    ui.run(scenario())


def test_the_card_is_still_there_after_switching_chats_and_back(ui):
    async def scenario():
        window, proposals = await open_window(ui)
        objects = window.objects
        first = objects.session.sessionKey
        turn = await run_cli(ui, window)
        await propose(ui, window, proposals, turn)
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey and objects.session.sessionKey != first)
        assert first not in objects.session.store.timelines  # the chat left is dropped (its turn ended)
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first, 15)
        await ui.until(lambda: "proposal" in ui.kinds(window))
        # reloaded from the agent's history: the kept card sits where the CLI's call was, still live
        timeline = objects.session.timeline
        assert [timeline.items[i].kind for i in timeline.order][:3] == ["message", "tool", "proposal"]
        assert "tool" not in ui.kinds(window)
        await ui.until(lambda: ui.find(window, "proposalButton_2_0") is not None)
        await ui.frames(window, 2)
        await focus(ui, window, "proposalButton_2_0")
        await ui.key(window, Qt.Key.Key_Return)
        assert proposals.calls == [("confirm", "p1", 2, 0, True)]
        state = ui.item(window, "proposalState")
        await ui.until(lambda: state.property("text") == f"Confirmed: sent to {TARGET}")

    ui.run(scenario())
