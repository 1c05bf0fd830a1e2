"""Signing in, in the real window, against the scripted agent requiring each kind of method: the panel
replaces the conversation and names the agent's methods; each method signs in and the chat opens, and
a message typed meanwhile is sent then (nothing lost)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.conftest import scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click


async def _open_refused(ui, flag: str):
    window = await ui.open(scripted_agent_argv(flag), start=False)
    window.objects.start()
    panel = await ui.until(lambda: ui.find(window, "signInPanel"))
    await ui.until(lambda: panel.isVisible(), 20)
    assert not ui.item(window, "timeline").isVisible()  # the panel stands in for the conversation
    return window


def _gone(ui, window) -> bool:
    """The panel is destroyed once signed in (it is built only while needed)."""
    return ui.find(window, "signInPanel") is None


def _text(ui, window, name: str) -> str:
    return ui.item(window, name).property("text")


def test_the_agent_method_signs_in_and_the_queued_message_goes_out(ui):
    async def scenario():
        window = await _open_refused(ui, "--auth=agent")
        objects = window.objects
        assert _text(ui, window, "signInTitle") == "Sign in to Scripted"
        assert _text(ui, window, "agentStateLabel") == "Scripted \u00b7 sign-in needed"
        assert "Authentication required" in _text(ui, window, "signInReason")
        assert objects.notices.notice == ""  # the panel says it; no second, vaguer notice
        await ui.type_and_send(window, "hello after signing in")  # kept while nobody is signed in
        await ui.until(lambda: objects.queue.texts() == ["hello after signing in"])
        await ui.screenshots(window, "26-sign-in-panel")
        ui.item(window, "signInAction_scripted-oauth").clicked.emit()
        await ui.until(lambda: _gone(ui, window), 20)
        await ui.until(lambda: objects.session.sessionKey, 20)
        await ui.until(lambda: _text(ui, window, "agentStateLabel") == "Scripted \u00b7 ready")
        await ui.until(lambda: "user" in ui.kinds(window))  # the queued message went out
        assert objects.queue.texts() == []

    ui.run(scenario())


def test_an_api_key_typed_masked_signs_in(ui):
    async def scenario():
        window = await _open_refused(ui, "--auth=env")
        ui.item(window, "signInAction_scripted-key").clicked.emit()
        field = await ui.until(lambda: ui.find(window, "signInField_SCRIPTED_API_KEY"))
        await ui.until(lambda: field.isVisible())
        field.forceActiveFocus()
        await ui.keys(window, "sk-scripted")
        assert field.property("text") == "sk-scripted"
        assert field.property("displayText") != "sk-scripted"  # masked on screen
        await ui.screenshots(window, "27-sign-in-api-key")
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: _gone(ui, window), 20)
        await ui.until(lambda: window.objects.session.sessionKey, 20)

    ui.run(scenario())


def test_the_login_command_runs_in_a_terminal_that_takes_the_users_keys(ui, monkeypatch, tmp_path):
    monkeypatch.setenv("SCRIPTED_AUTH_FILE", str(tmp_path / "scripted-token"))

    async def scenario():
        window = await _open_refused(ui, "--auth=terminal")
        ui.item(window, "signInAction_scripted-login").clicked.emit()
        screen = await ui.until(lambda: ui.find(window, "signInScreen"))
        await ui.until(lambda: "Enter the code" in (screen.property("text") or ""), 10)
        await ui.until(lambda: screen.property("activeFocus"))
        await ui.keys(window, "2468")
        await ui.until(lambda: "2468" in screen.property("text"))  # the PTY echoes what was typed
        await ui.screenshots(window, "28-sign-in-terminal")
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: _gone(ui, window), 20)
        await ui.until(lambda: window.objects.session.sessionKey, 20)
        assert (tmp_path / "scripted-token").exists()

    ui.run(scenario())


LOGOUT_CAPS = '{"loadSession": true, "sessionCapabilities": {"list": {}}, "auth": {"logout": {}}}'


def test_signing_out_asks_first_then_the_agent_forgets_and_its_sign_in_comes_back(ui):
    """An agent offering ACP `logout` (agentCapabilities.auth.logout): the sidebar's Sign out asks,
    then the agent is told to forget the sign-in and its methods are offered again."""

    async def scenario():
        window = await ui.open(scripted_agent_argv("--auth=agent", f"--caps={LOGOUT_CAPS}"), start=False)
        objects = window.objects
        objects.start()
        await ui.shown(window, "signInAction_scripted-oauth", 20)
        assert not objects.sign_in.canSignOut or objects.sign_in.shown  # not offered while signed out
        ui.item(window, "signInAction_scripted-oauth").clicked.emit()
        await ui.until(lambda: objects.session.sessionKey and _gone(ui, window), 20)
        await mouse_click(ui, window, "signOutButton")
        await ui.shown(window, "signOutConfirm")
        await ui.screenshots(window, "27-sign-out")
        await mouse_click(ui, window, "signOutConfirm")
        log = ui.tmp_path / "agent-stderr.log"
        await ui.until(lambda: "logout" in log.read_text().splitlines())
        panel = await ui.until(lambda: ui.find(window, "signInPanel"), 20)
        await ui.until(lambda: panel.isVisible())
        assert "signed out of Scripted" in _text(ui, window, "signInReason")
        assert not ui.item(window, "signOutButton").isVisible()

    ui.run(scenario())


def test_an_agent_without_logout_offers_no_sign_out(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.until(lambda: window.objects.session.sessionKey)
        assert not window.objects.sign_in.canSignOut
        assert not ui.item(window, "signOutButton").isVisible()

    ui.run(scenario())
