"""The agent's questions in the real window, with the scripted agent as a real subprocess: a form with
every kind of field takes the keyboard, shows each field's problem under it and sends nothing until all
pass, keeps what was typed when its row is rebuilt, and the agent gets typed values; a link shows the
host it really opens (a homograph warned) and opens only on the click; Decline; a question asked in a
chat the user left waits there and is answered after going back; a question whose agent died keeps what
the user typed; a hostile form says why it cannot be shown."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from app.renderer.timeline.items import ElicitationItem
from tests.conftest import scripted_agent_argv
from tests.ui_harness import find_all, focused, shown_item, shown_texts, timeline_items


def _question(window) -> ElicitationItem:
    return timeline_items(window, ElicitationItem)[-1]


def _answered(objects) -> dict:
    from app.renderer.timeline.items import MessageSegment
    from app.renderer.timeline.turn_view import item_text

    timeline = objects.session.timeline
    texts = [
        item_text(i)
        for i in timeline.items.values()
        if isinstance(i, MessageSegment) and i.role == "assistant"
    ]
    said = next(t for t in reversed(texts) if "answered: " in t)
    return json.loads(said.split("answered: ", 1)[1])


async def _focus_and_type(ui, window, name: str, text: str, replace: bool = False) -> None:
    field = await ui.until(lambda: shown_item(window, name))
    field.forceActiveFocus()
    if replace:
        await ui.key(window, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    await ui.keys(window, text)


async def _tick(ui, window, name: str) -> None:
    """Space on a checkbox or a choice, as the keyboard does."""
    box = await ui.until(lambda: shown_item(window, name))
    box.forceActiveFocus()
    await ui.key(window, Qt.Key.Key_Space, text=" ")


def test_a_form_with_every_field_is_answered_by_keyboard_after_its_problems_are_shown(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "ask-form")
        await ui.shown(window, "questionCard")
        await ui.until(lambda: focused(window) == "questionField_name")  # the keyboard is the form's
        assert shown_item(window, "questionField_name").property("text") == "clawqt"  # its default
        assert objects.sessions.entries()[0]["needsYou"]
        await ui.screenshots(window, "120-question-form")
        await _focus_and_type(ui, window, "questionField_email", "nobody")
        await ui.key(window, Qt.Key.Key_Return)  # Enter sends: the main side finds what must change
        problem = await ui.until(lambda: shown_item(window, "questionProblem_email"))
        assert problem.property("text") == "An email address, like name@example.com."
        assert shown_item(window, "questionProblem_region").property("text") == "This is needed."
        assert shown_item(window, "questionProblem_checks").property("text") == "This is needed."
        assert _question(window).status == "waiting" and objects.session.busy  # nothing went
        await ui.screenshots(window, "121-question-form-problems")
        await ui.let_go_of_every_row(window, "questionCard")  # the row rebuilt: what was typed stays
        await ui.until(lambda: shown_item(window, "questionField_email"))
        assert shown_item(window, "questionField_email").property("text") == "nobody"
        await _focus_and_type(ui, window, "questionField_email", "ops@example.com", replace=True)
        await _focus_and_type(ui, window, "questionField_ticket", "OPS-12")
        await _focus_and_type(ui, window, "questionField_replicas", "3", replace=True)
        await _focus_and_type(ui, window, "questionField_budget", "2.5")
        await _tick(ui, window, "questionChoice_us-east")
        await _tick(ui, window, "questionChoice_m")
        await _tick(ui, window, "questionChoice_tests")
        await _tick(ui, window, "questionChoice_lint")
        await _tick(ui, window, "questionField_notify")  # its default was yes
        await ui.until(
            lambda: not shown_item(window, "questionProblem_region")
        )  # a fixed field's problem goes
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy)
        assert _answered(objects) == {
            "action": "accept",
            "content": {
                "name": "clawqt", "email": "ops@example.com", "ticket": "OPS-12", "replicas": 3,
                "budget": 2.5, "notify": False, "region": "us-east", "tier": "m", "checks": ["lint", "tests"],
            },
        }  # fmt: skip
        await ui.until(lambda: shown_texts(window, "questionEnding") == ["Answered"])
        lines = [
            t.property("text") for t in find_all(window.root.contentItem(), "questionAnswer") if t.isVisible()
        ]
        assert "Checks to run: Lint, Tests" in lines and "Tier: Medium" in lines and "Replicas: 3" in lines
        assert not objects.sessions.entries()[0]["needsYou"]
        await ui.screenshots(window, "122-question-answered")

    ui.run(scenario())


def test_a_link_shows_the_host_it_opens_and_opens_only_on_the_click_and_decline(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        opened: list[str] = []
        objects.questions.open_external = lambda url: opened.append(bytes(url.toEncoded()).decode()) or True
        await ui.type_and_send(window, "ask-link https://\u0430pple.com/login")
        host = await ui.shown(window, "questionHost")
        assert host.property("text") == "xn--pple-43d.com"
        warning = shown_item(window, "questionHostWarning").property("text")
        assert "“\u0430pple.com”, mixing alphabets (Cyrillic, Latin)" in warning
        assert opened == []  # nothing opens by itself
        await ui.screenshots(window, "123-question-link")
        button = shown_item(window, "questionOpen")
        assert button.property("text") == "Open xn--pple-43d.com"
        button.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: opened)
        assert opened == ["https://xn--pple-43d.com/login"]
        await ui.until(lambda: _question(window).completed)  # the agent said its flow is done
        await ui.until(
            lambda: (
                "Opened xn--pple-43d.com: the agent says it is done" in shown_texts(window, "questionEnding")
            )
        )
        await ui.until(lambda: not objects.session.busy)
        await ui.type_and_send(window, "ask-short")
        await ui.until(
            lambda: (
                len(find_all(window.root.contentItem(), "questionDecline"))
                and shown_item(window, "questionDecline")
            )
        )
        shown_item(window, "questionDecline").forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy)
        assert _answered(objects) == {"action": "decline"}
        assert _question(window).status == "decline"

    ui.run(scenario())


def test_a_question_in_a_chat_left_waits_and_keeps_what_was_typed_until_answered(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.type_and_send(window, "ask-short")
        await ui.until(lambda: focused(window) == "questionField_colour")
        await ui.keys(window, "teal")
        await ui.new_chat(window)
        entries = {e["key"]: e for e in objects.sessions.entries()}
        assert entries[first]["needsYou"] and objects.host.sessions.pending_permissions == 1
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first)
        field = await ui.until(lambda: shown_item(window, "questionField_colour"))
        assert field.property("text") == "teal"
        field.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy)
        assert _answered(objects) == {"action": "accept", "content": {"colour": "teal"}}

    ui.run(scenario())


def test_a_question_whose_agent_died_keeps_what_was_typed_and_a_hostile_form_says_why(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "ask-many")
        refused = await ui.shown(window, "questionRefused")
        assert refused.property("text") == "“Pick” offers 10,000 choices; ClawQt shows at most 1,000."
        await ui.until(lambda: not objects.session.busy)
        await ui.screenshots(window, "124-question-refused")
        await ui.type_and_send(window, "ask-then-die")
        await ui.until(lambda: focused(window) == "questionField_why")
        await ui.keys(window, "because")
        await ui.until(lambda: _question(window).status != "waiting", 15)
        await ui.until(
            lambda: "The agent stopped before you answered" in shown_texts(window, "questionEnding")
        )
        await ui.until(lambda: shown_texts(window, "questionUnsent") == ["Not sent:\nWhy: because"])
        await ui.screenshots(window, "125-question-agent-gone")

    ui.run(scenario())


def _trace_with_a_waiting_question(path) -> None:
    """A recorded session whose last message is the agent's question (the recording ended there)."""
    schema = {"type": "object", "properties": {"colour": {"type": "string", "title": "Colour"}}}
    messages = [
        ("send", {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1}}),
        ("recv", {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": 1, "agentCapabilities": {}}}),
        ("send", {"jsonrpc": "2.0", "id": 1, "method": "session/new",
                  "params": {"cwd": "/tmp", "mcpServers": []}}),
        ("recv", {"jsonrpc": "2.0", "id": 1, "result": {"sessionId": "s1"}}),
        ("send", {"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
                  "params": {"sessionId": "s1", "prompt": [{"type": "text", "text": "pick a colour"}]}}),
        ("recv", {"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
                  "params": {"sessionId": "s1", "mode": "form", "message": "Which colour?",
                             "requestedSchema": schema}}),
    ]  # fmt: skip
    path.write_text(
        "".join(json.dumps({"t": n / 10, "dir": d, "msg": m}) + "\n" for n, (d, m) in enumerate(messages))
    )


def test_a_replayed_trace_shows_its_waiting_question_read_only(ui, tmp_path):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        trace = tmp_path / "waiting.jsonl"
        _trace_with_a_waiting_question(trace)
        objects.trace_view.open_path(str(trace))
        await ui.until(lambda: objects.session.readOnly and "elicitation" in ui.kinds(window), 20)
        await ui.until(lambda: shown_texts(window, "questionEnding") == ["Not answered in this trace"])
        assert not shown_item(window, "questionSend") and not shown_item(window, "questionField_colour")
        asked = _question(window).request_id
        assert not objects.questions.send(asked)  # nothing answers from a trace:
        assert objects.questions.problem(asked, "") == ""  # nor is the main side even asked
        await ui.screenshots(window, "126-question-in-a-trace")

    ui.run(scenario())
