"""Each renderer object on its own, on a real host API and the real scripted agent over stdio, without a
window: what it shows and what its actions do (the window tests drive the same objects through QML)."""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QGuiApplication

from app.main.agents.command import AgentCommand
from app.main.host.make import make_host
from app.main.sessions.service import ChatService
from app.renderer.qt.composer.turn import NEW_CHAT_DRAFT
from app.renderer.qt.window import ChatObjects
from app.renderer.timeline.rows import RowKey
from tests.conftest import scripted_agent_argv


class Objects:
    """The chat objects of one (window-less) chat, started on the scripted agent."""

    def __init__(self, ui: Any, *flags: str) -> None:
        self.ui = ui
        service = ChatService(
            AgentCommand(scripted_agent_argv(*flags), "flag", "test"),
            cwd=str(ui.tmp_path),
            log_path=ui.tmp_path / "agent-stderr.log",
        )
        self.host = make_host(service)
        self.o = ChatObjects(self.host)

    async def start(self) -> ChatObjects:
        self.o.start()
        await self.ui.until(lambda: self.o.session.sessionKey, 30)
        return self.o

    async def say(self, text: str) -> None:
        self.o.turn.send(text)
        await self.ui.until(lambda: not self.o.session.busy, 20)
        self.o.model.flush()  # the turn's last rows are shown on the model's next beat


@pytest.fixture
def chat(ui):
    made: list[Objects] = []

    def factory(*flags: str) -> Objects:
        made.append(Objects(ui, *flags))
        return made[-1]

    yield factory
    for objects in made:
        ui.run(objects.o.shutdown())


# --- the window closing -----------------------------------------------------------------------------
def test_closing_ends_the_agent_and_the_users_shells_through_the_hosts_one_shutdown(ui, chat):
    """The window, `clawqt smoke`, the self-test and the tests all end the main side through
    `HostApi.shutdown`: once the window's objects shut down, no agent child and no shell is left."""
    objects = chat()

    async def scenario() -> None:
        o = await objects.start()
        terminals = objects.host.terminals
        terminal_id = terminals.open(None, 0, 80, 24)
        terminals.input(terminal_id, "echo shell-$$\r")
        found = await ui.until(lambda: re.search(r"shell-(\d+)", terminals.output(terminal_id)))
        shell = int(found.group(1))
        agent = objects.host.sessions.current_service.connection.pid
        assert agent is not None
        await o.shutdown()
        for pid in (agent, shell):
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)  # ended and reaped, not left running

    ui.run(scenario())


# --- the shown session and the sidebar ---------------------------------------------------------------
def test_session_titles_follow_rename_then_the_agents_title_then_the_first_question(ui, chat):
    objects = chat()

    async def scenario() -> None:
        o = await objects.start()
        key = o.session.sessionKey
        assert o.header.title == "New chat"
        await objects.say("hello there")
        assert o.header.title == "hello there"  # the first question, until something better
        o.sessions.rename(key, "  Build fixes ")
        assert o.header.title == "Build fixes"
        entry = next(e for e in o.sessions.entries() if e["key"] == key)
        assert entry["title"] == "Build fixes" and entry["current"]
        listed = [e for e in o.sessions.entries() if e["key"].startswith("listed-")]
        assert listed and listed[0]["title"] == "Session 0"  # the agent's session/list title

    ui.run(scenario())


def test_a_turn_ending_in_a_session_not_shown_marks_it_unseen_until_opened(ui, chat):
    objects = chat()

    async def scenario() -> None:
        o = await objects.start()
        first = o.session.sessionKey
        o.turn.send("background job")
        await ui.until(lambda: any(e["key"] == first and e["live"] for e in o.sessions.entries()))
        o.session.newChat()
        await ui.until(lambda: o.session.sessionKey not in ("", first))
        await ui.until(lambda: next(e for e in o.sessions.entries() if e["key"] == first)["unseen"], 15)
        o.session.openSession(first)
        await ui.until(lambda: o.session.sessionKey == first)
        assert not next(e for e in o.sessions.entries() if e["key"] == first)["unseen"]

    ui.run(scenario())


def test_closing_the_shown_session_removes_it_and_opens_a_new_chat(ui, chat):
    objects = chat()

    async def scenario() -> None:
        o = await objects.start()
        first = o.session.sessionKey
        assert o.sessions.canClose and o.sessions.canDelete
        o.sessions.close(first)
        await ui.until(lambda: o.session.sessionKey not in ("", first))
        assert first not in [e["key"] for e in o.sessions.entries()]

    ui.run(scenario())


# --- the header and the agent ------------------------------------------------------------------------
def test_the_header_shows_modes_options_and_follows_the_agents_metadata(ui, chat):
    objects = chat()

    async def scenario() -> None:
        o = await objects.start()
        header = o.header
        assert [m["id"] for m in header.modes] == ["a", "b"] and header.currentMode == "a"
        [model] = [c for c in header.configOptions if c["category"] == "model"]
        assert model["currentValue"] == "m1" and [c["value"] for c in model["choices"]] == ["m1", "m2"]
        assert [c["name"] for c in header.commands] == ["status", "help"]
        header.setMode("b")
        await ui.until(lambda: header.currentMode == "b")  # from the agent's current_mode_update
        header.setConfigOption("model", "m2")
        await ui.until(lambda: header.configOptions[0]["currentValue"] == "m2")

    ui.run(scenario())


def test_the_agent_status_is_working_during_a_turn_and_a_banner_follows_an_exit(ui, chat):
    objects = chat()

    async def scenario() -> None:
        o = await objects.start()
        assert o.agent.state == "ready" and o.agent.label == "Scripted"
        o.turn.send("background job")
        await ui.until(lambda: o.agent.state == "working")
        await ui.until(lambda: o.agent.state == "ready", 15)
        objects.host.sessions.current_service.connection._process.proc.kill()
        await ui.until(lambda: o.agent.banner.get("message"), 10)
        assert o.agent.state == "exited" and o.agent.banner["exitCode"] != 0
        o.agent.reconnect()
        assert o.agent.banner == {}
        await ui.until(lambda: o.agent.state == "ready", 20)

    ui.run(scenario())


# --- the turn --------------------------------------------------------------------------------------
def test_a_draft_is_kept_per_session_and_typed_before_any_chat_goes_to_the_first(ui, chat):
    objects = chat()
    objects.host.stores.drafts.set(NEW_CHAT_DRAFT, "typed while starting")

    async def scenario() -> None:
        o = await objects.start()
        first = o.session.sessionKey
        assert o.turn.draft == "typed while starting"
        o.turn.setDraft("half a thought")
        o.session.newChat()
        await ui.until(lambda: o.session.sessionKey not in ("", first))
        assert o.turn.draft == "" and objects.host.stores.drafts.get(first) == "half a thought"
        o.session.openSession(first)
        await ui.until(lambda: o.session.sessionKey == first)
        assert o.turn.draft == "half a thought"

    ui.run(scenario())


def test_the_message_is_in_the_model_before_the_prompt_is_sent(ui, chat):
    objects = chat()

    async def scenario() -> None:
        o = await objects.start()
        o.turn.send("hello")
        assert o.session.busy and [r.kind for r in o.model.rows] == ["user"]  # before any await
        await ui.until(lambda: not o.session.busy)
        o.model.flush()  # the reply's rows are shown on the model's next beat, which a busy machine delays
        assert "assistant-text" in [r.kind for r in o.model.rows]

    ui.run(scenario())


def test_a_prompt_refused_before_sending_is_not_shown_as_sent_and_goes_back_to_the_composer(ui, chat):
    """The agent died: the main side refuses the prompt before anything goes out. The message must not
    stay in the conversation as if sent (it used to, with "the agent stopped before finishing"), nor live
    only in a Retry notice that the next send replaces: it goes back into the composer."""
    objects = chat()

    async def scenario() -> None:
        o = await objects.start()
        objects.host.sessions.current_service.connection._process.proc.kill()
        await ui.until(lambda: o.agent.state == "exited", 10)
        o.turn.send("are you there?")
        await ui.until(lambda: not o.session.busy)
        assert o.notices.notice.startswith("Your message was not sent (it is back in the composer)")
        assert not o.notices.canRetry and o.turn.draft == "are you there?"
        assert "reload the session" in o.notices.notice and "draft is kept" not in o.notices.notice
        o.model.flush()  # the row's removal is shown on the model's next beat, which a busy machine delays
        assert [r.kind for r in o.model.rows] == []

    ui.run(scenario())


def test_a_failed_prompt_keeps_the_attachments_and_offers_retry(ui, chat):
    objects = chat()
    (ui.tmp_path / "notes.txt").write_text("n")

    async def scenario() -> None:
        o = await objects.start()
        assert o.composer_files.add_path(str(ui.tmp_path / "notes.txt"))
        o.turn.send("fail now")
        await ui.until(lambda: not o.session.busy)
        assert "Your message was not sent" in o.notices.notice and o.turn.draft == "fail now"
        assert [c["name"] for c in o.composer_files.items] == ["notes.txt"]

    ui.run(scenario())


def test_an_unsent_message_goes_back_before_what_was_typed_since(ui, chat, isolated_dirs):
    objects = chat()

    async def scenario() -> None:
        o = await objects.start()
        o.turn.send("silent first message")
        await ui.until(lambda: o.session.busy)
        o.turn.setDraft("typed while it was sent")
        objects.host.sessions.current_service.connection._process.proc.kill()  # dies before answering a word
        await ui.until(lambda: not o.session.busy, 10)
        assert o.turn.draft == "silent first message\n\ntyped while it was sent"  # nothing replaced
        saved = json.loads((isolated_dirs / "data" / "drafts.json").read_text())
        assert o.session.sessionKey in json.dumps(saved) and "silent first message" in json.dumps(saved)

    ui.run(scenario())


# --- the conversation and the files the agent changed ----------------------------------------------------
def test_questions_copy_and_links(ui, chat):
    objects = chat()

    async def scenario() -> None:
        o = await objects.start()
        await objects.say("first question")
        await objects.say("second question")
        o.conversation.refresh_questions()
        assert [(q["number"], q["title"]) for q in o.conversation.questions] == [
            (1, "first question"),
            (2, "second question"),
        ]
        scrolled: list[int] = []
        o.conversation.scrollToRow.connect(scrolled.append)
        o.conversation.goToQuestion(2)
        assert o.model.row_at(scrolled[0]).key == RowKey(
            "user", o.session.timeline.grouping.groups[2].ref.first_item
        )
        footer = next(r for r in o.model.rows if r.kind == "turn-footer")
        o.conversation.copyTurn(o.model.view_row_of_key(footer.key))
        assert QGuiApplication.clipboard().text() == "Hello world"
        o.conversation.openLink("javascript:alert(1)")
        assert o.notices.notice.startswith("Not opened:")

    ui.run(scenario())


def test_file_changes_follow_the_agents_writes_and_a_refused_revert_says_why(ui, chat):
    objects = chat()
    target: Path = ui.tmp_path / "notes.txt"
    target.write_text("one\n")

    async def scenario() -> None:
        o = await objects.start()
        await objects.say("fs-write notes.txt one\\ntwo\\n")
        turn_id = o.session.timeline.live_message_id or next(iter(o.session.timeline.timings))
        [change] = o.files.files_changed(turn_id)
        assert change["name"] == "notes.txt" and "+two" in change["diff"]
        target.write_text("edited by the user\n")
        o.files.revert(turn_id, str(target))
        assert o.notices.notice.startswith("Not reverted:") and target.read_text() == "edited by the user\n"

    ui.run(scenario())


# --- a message sent before any chat is open --------------------------------------------------------------
def test_a_message_sent_while_the_agent_starts_is_queued_and_sent_when_the_chat_opens(ui, chat):
    objects = chat("--init-delay=1.5")
    o = objects.o

    async def scenario() -> None:
        o.start()
        await ui.until(lambda: o.agent.state == "starting")
        o.turn.send("hello from the start")
        assert o.queue.texts() == ["hello from the start"] and o.turn.draft == ""
        assert o.notices.notice == "" and o.model.rows == []  # queued, not lost and not shown as sent
        await ui.until(lambda: o.session.sessionKey, 20)
        assert o.queue.texts() == []
        await ui.until(lambda: not o.session.busy and "assistant-text" in [r.kind for r in o.model.rows])
        timeline = o.session.timeline
        user = [timeline.items[i] for i in timeline.order if i.startswith("user:")]
        assert user and "hello from the start" in str(user[0].parts)

    ui.run(scenario())


def test_a_queued_message_can_be_taken_back_with_its_attachments(ui, chat):
    objects = chat("--no-init")
    o = objects.o
    (ui.tmp_path / "plan.md").write_text("p")

    async def scenario() -> None:
        o.start()
        await ui.until(lambda: o.agent.state == "starting")
        assert o.composer_files.add_path(str(ui.tmp_path / "plan.md"))
        o.turn.send("first thought")
        o.turn.setDraft("half typed")
        [queued] = o.queue.model.entries
        assert queued["files"] == 1 and queued["fileNames"] == "plan.md" and o.composer_files.count == 0
        o.turn.editQueued(queued["id"])
        assert o.queue.texts() == [] and o.turn.draft == "first thought\n\nhalf typed"
        assert [c["name"] for c in o.composer_files.items] == ["plan.md"]

    ui.run(scenario())


def test_a_failed_new_chat_says_why_until_a_chat_opens_and_then_sends_what_was_queued(ui, chat):
    objects = chat("--fail-new=1")
    o = objects.o

    async def scenario() -> None:
        o.start()
        await ui.until(lambda: o.notices.notice.startswith("Could not start a new chat"), 20)
        assert "workspace is locked" in o.notices.notice
        o.turn.send("are we there yet?")
        assert o.queue.texts() == ["are we there yet?"]
        o.session.newChat()  # the user tries again: it works this time
        await ui.until(lambda: o.session.sessionKey, 20)
        assert o.notices.notice == ""  # no notice outlives what it says
        await ui.until(lambda: not o.session.busy and "assistant-text" in [r.kind for r in o.model.rows])
        assert o.queue.texts() == []

    ui.run(scenario())


# --- icons and permission answers ------------------------------------------------------------------------
def test_steady_typing_is_saved_while_it_goes_on(ui, chat, isolated_dirs):
    """The save delay used to restart on every key: 300 characters typed over 9 s were never written,
    and a crash lost them all. Now a change is on disk at most DRAFT_SAVE_MS after it was typed."""

    objects = chat()
    drafts = isolated_dirs / "data" / "drafts.json"

    def saved() -> str:
        return json.dumps(json.loads(drafts.read_text())) if drafts.exists() else ""

    async def scenario() -> None:
        o = await objects.start()
        typed = ""
        seen_while_typing = []
        for n in range(20):  # a key every 80 ms, 1.6 s in all
            typed += "abcde"[n % 5]
            o.turn.setDraft(typed)
            await asyncio.sleep(0.08)  # a typist's pace
            seen_while_typing.append(saved())
        assert any(typed[:5] in text for text in seen_while_typing), "nothing saved while typing"
        await ui.until(lambda: typed in saved())  # once the draft's save delay has passed

    ui.run(scenario())
