"""Terminal-action proposals through the real OpenClaw with exec approvals on: the fake model, given only
what OpenClaw sends it, runs the proposal command of ClawQt's hidden context with OpenClaw's `exec`
tool; the gateway asks ClawQt's approval (`session/request_permission`), ClawQt allows exactly that
command silently, OpenClaw runs the real `clawqt propose-terminal-actions`, and the card waits in the
real window. The user decides with the keyboard: a confirmed command runs in the panel's bash (a marker
file), a cancelled one never does, and the model's next request holds the CLI's two lines."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.conftest import EnvelopeLog
from tests.e2e.conftest import EXEC_DEFAULT_YIELD_S
from tests.e2e.gateway import Gateway
from tests.ui.terminals.test_agent_window import Chat
from tests.ui_harness import focused

pytestmark = pytest.mark.e2e


def set_exec_mode(gateway: Gateway, mode: str) -> None:
    """Change the running gateway's `tools.exec.mode`, applied in place."""
    config = json.loads(gateway.config_path.read_text())
    config.setdefault("tools", {}).setdefault("exec", {})["mode"] = mode
    gateway.configure(config)


@pytest.fixture
def exec_without_asking(openclaw: Gateway) -> Iterator[Gateway]:
    """The gateway with OpenClaw's default exec policy (`full`: commands run without asking), and the
    suite's `ask` again afterwards."""
    set_exec_mode(openclaw, "full")
    yield openclaw
    set_exec_mode(openclaw, "ask")


@pytest.fixture
def bash(monkeypatch) -> None:
    """The panel's terminals run the suite's bash (tests/shell/bash: no rc files)."""


class ProposalChat(Chat):
    """The window on the OpenClaw bridge, with every exec approval OpenClaw asked ClawQt and the answer
    ClawQt's proposal service gave it ("" cancels, None hands it to the user)."""

    approvals: list[tuple[dict, object]]


async def proposal_chat(ui, gateway: Gateway, monkeypatch) -> ProposalChat:
    window = await ui.open(gateway.agent_argv())
    envelopes = EnvelopeLog()
    window.host.sessions.subscribe(envelopes)
    await ui.until(lambda: window.host.proposals.available, 15)
    chat = ProposalChat(ui, window, envelopes)
    chat.approvals = []
    service = window.host.proposals
    answer = service.on_permission

    def recorded(session_key: str, tool_call: dict, options: list[dict]):
        chat.approvals.append((tool_call, answer(session_key, tool_call, options)))
        return chat.approvals[-1][1]

    monkeypatch.setattr(service, "on_permission", recorded)
    return chat


def assert_allowed_once_silently(chat: ProposalChat, command_part: str) -> None:
    """OpenClaw asked ClawQt's approval for exactly one exec, the proposal command, and ClawQt answered
    it with OpenClaw's allow-once option itself."""
    ((tool_call, answered),) = chat.approvals
    raw = tool_call.get("rawInput") or {}
    assert raw.get("name") == "exec" and raw.get("approvalId"), tool_call
    assert " propose-terminal-actions --channel v1." in raw["command"] and command_part in raw["command"]
    assert answered == "allow-once", answered


def exec_results(fake_model, since: int) -> list[str]:
    """The exec results OpenClaw handed the model since request `since` (the CLI's stdout in them)."""
    seen: list[str] = []
    for request in fake_model.requests[since:]:
        calls = {
            call.get("id"): (call.get("function") or {}).get("name")
            for message in request.get("messages") or []
            for call in message.get("tool_calls") or []
        }
        for message in request.get("messages") or []:
            if message.get("role") == "tool" and calls.get(message.get("tool_call_id")) == "exec":
                content = message.get("content")
                text = content if isinstance(content, str) else json.dumps(content)
                if text not in seen:
                    seen.append(text)
    return seen


def cli_lines(text: str) -> list[dict]:
    """The JSON lines the CLI printed, found in what OpenClaw handed the model."""
    lines = []
    for line in text.replace("\\n", "\n").splitlines():
        start = line.find('{"phase"')
        if start >= 0:
            lines.append(json.loads(line[start : line.rindex("}") + 1].replace('\\"', '"')))
    return lines


async def propose_and_wait_for_the_card(chat: Chat, command: str, words: str = "propose") -> None:
    await chat.ui.type_and_send(chat.window, f"{words} {command}")
    await chat.ui.until(lambda: chat.ui.find(chat.window, "proposalButton_1_0") is not None, 90)
    await chat.ui.frames(chat.window, 2)
    # ClawQt answered OpenClaw's exec approval itself: no permission row, no tool card for the CLI
    assert chat.envelopes.of_kind("permission_request") == []
    kinds = chat.ui.kinds(chat.window)
    assert "permission" not in kinds and "tool" not in kinds and "tool-group" not in kinds, kinds
    assert chat.window.objects.session.busy  # OpenClaw's exec still runs the CLI, which waits for the user


async def decide(chat: Chat, key: Qt.Key) -> None:
    chat.ui.item(chat.window, "proposalButton_1_0").forceActiveFocus()
    await chat.ui.until(lambda: focused(chat.window) == "proposalButton_1_0")
    await chat.ui.key(chat.window, key)


def test_openclaw_proposes_through_exec_the_user_confirms_with_the_keyboard_and_it_runs(
    ui, openclaw, fake_model, bash, tmp_path: Path, monkeypatch
):
    async def scenario():
        chat = await proposal_chat(ui, openclaw, monkeypatch)
        terminal = await chat.shared_terminal("off")  # proposals need no sharing: the user's click acts
        marker = tmp_path / "proposed-by-openclaw"
        requests_before, results_before = len(fake_model.requests), len(fake_model.proposal_results)
        await propose_and_wait_for_the_card(chat, f"touch {marker}")
        assert not marker.exists()
        assert_allowed_once_silently(chat, f"touch {marker}")
        assert ui.item(chat.window, "proposalButton_1_0").property("text") == "Run command"
        await ui.screenshots(chat.window, "e2e-07-openclaw-proposal")

        await decide(chat, Qt.Key.Key_Return)
        await ui.until(marker.exists, 20)  # typed into the user's bash in the panel and run there
        assert f"touch {marker}" in chat.host.terminals.output(terminal)
        await ui.until(lambda: not chat.window.objects.session.busy, 90)
        await ui.until(lambda: ui.item(chat.window, "proposalState").property("text").startswith("Confirmed"))

        # the model's next request carried the CLI's two lines, as OpenClaw's exec result
        (result,) = fake_model.proposal_results[results_before:]
        (validation, final) = cli_lines(result["content"])
        assert validation["phase"] == "validation" and validation["status"] == "accepted"
        assert final == {"phase": "final", "status": "confirmed", "proposal_id": validation["proposal_id"]}
        assert any(result["content"] == sent for sent in exec_results(fake_model, requests_before))
        assert "The proposal command printed" in chat.envelopes.text()
        kinds = ui.kinds(chat.window)
        assert "permission" not in kinds and "tool" not in kinds, kinds
        await ui.screenshots(chat.window, "e2e-08-openclaw-proposal-confirmed")

    ui.run(scenario(), timeout=240)


def test_an_openclaw_whose_exec_does_not_ask_proposes_and_the_card_runs_on_enter(
    ui, exec_without_asking, fake_model, bash, tmp_path: Path, monkeypatch
):
    async def scenario():
        chat = await proposal_chat(ui, exec_without_asking, monkeypatch)
        terminal = await chat.shared_terminal("off")
        marker = tmp_path / "proposed-without-asking"
        results_before = len(fake_model.proposal_results)
        await propose_and_wait_for_the_card(chat, f"touch {marker}")
        assert chat.approvals == []  # OpenClaw ran the CLI without asking anyone
        assert chat.envelopes.of_kind("permission_request") == []
        assert not marker.exists() and chat.window.objects.notices.notice == ""
        await ui.screenshots(chat.window, "e2e-09-openclaw-proposal-without-asking")
        await decide(chat, Qt.Key.Key_Return)
        await ui.until(marker.exists, 20)
        assert f"touch {marker}" in chat.host.terminals.output(terminal)
        await ui.until(lambda: not chat.window.objects.session.busy, 90)
        (result,) = fake_model.proposal_results[results_before:]
        (validation, final) = cli_lines(result["content"])
        assert validation["status"] == "accepted" and final["status"] == "confirmed"

    ui.run(scenario(), timeout=240)


def test_openclaw_proposes_the_user_cancels_with_esc_and_nothing_runs(
    ui, openclaw, fake_model, bash, tmp_path: Path, monkeypatch
):
    async def scenario():
        chat = await proposal_chat(ui, openclaw, monkeypatch)
        await chat.shared_terminal("off")
        marker = tmp_path / "never-by-openclaw"
        results_before = len(fake_model.proposal_results)
        await propose_and_wait_for_the_card(chat, f"touch {marker}")
        assert_allowed_once_silently(chat, f"touch {marker}")
        # past exec's default yield (the run's gateway's): the wait the hidden context asks for keeps the
        # CLI in the turn
        await asyncio.sleep(EXEC_DEFAULT_YIELD_S + 1)  # past the yield (above)
        assert chat.window.objects.session.busy and fake_model.proposal_results[results_before:] == []

        await decide(chat, Qt.Key.Key_Escape)
        await ui.until(lambda: not chat.window.objects.session.busy, 90)
        (result,) = fake_model.proposal_results[results_before:]
        (validation, final) = cli_lines(result["content"])
        assert validation["status"] == "accepted"
        assert final == {"phase": "final", "status": "cancelled", "proposal_id": validation["proposal_id"]}
        assert ui.item(chat.window, "proposalState").property("text").startswith("Cancelled")
        await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
        assert not marker.exists()

    ui.run(scenario(), timeout=240)


def test_a_decision_after_openclaw_moved_the_command_to_the_background_still_acts_and_reaches_the_agent(
    ui, openclaw, fake_model, bash, tmp_path: Path, monkeypatch
):
    """A model that asks exec for a short wait (here 1 s) gets "Command still running" and its turn
    ends; the card stays live, the user's confirmation still runs the command, and OpenClaw hands the
    model the CLI's two lines in its exec-completion follow-up."""

    async def scenario():
        chat = await proposal_chat(ui, openclaw, monkeypatch)
        terminal = await chat.shared_terminal("off")
        marker = tmp_path / "decided-later"
        requests_before, results_before = len(fake_model.requests), len(fake_model.proposal_results)
        await propose_and_wait_for_the_card(chat, f"touch {marker}", "propose yieldMs=1000")
        await ui.until(lambda: not chat.window.objects.session.busy, 60)  # the agent's turn ended
        (result,) = fake_model.proposal_results[results_before:]
        assert "Command still running" in result["content"] and cli_lines(result["content"]) == []
        # the card still waits for the user and can still run
        pill = ui.item(chat.window, "proposalStatePill").childItems()[0]
        assert pill.property("text") == "Waiting for you"
        assert ui.item(chat.window, "proposalButton_1_0").property("enabled")
        assert not marker.exists()

        await decide(chat, Qt.Key.Key_Return)
        await ui.until(marker.exists, 20)
        assert f"touch {marker}" in chat.host.terminals.output(terminal)

        def completion() -> str:
            for request in fake_model.requests[requests_before:]:
                for message in request.get("messages") or []:
                    text = json.dumps(message.get("content"))
                    if message.get("role") == "user" and "Exec completed" in text:
                        return text
            return ""

        def user_messages_since() -> list[str]:
            return [
                json.dumps(message.get("content"))[:300]
                for request in fake_model.requests[requests_before:]
                for message in request.get("messages") or []
                if message.get("role") == "user"
            ]

        # OpenClaw starts the follow-up run by itself, on a heartbeat wake: the gateway runs with no
        # periodic heartbeat, which would hold it for 30 minutes (tests/e2e/conftest.py)
        text = await ui.until(completion, 60, seen=user_messages_since)
        assert '\\"status\\":\\"accepted\\"' in text and '\\"status\\":\\"confirmed\\"' in text, text

    ui.run(scenario(), timeout=240)
