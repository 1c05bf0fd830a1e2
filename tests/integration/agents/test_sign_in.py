"""Signing in to an agent through the real chat service and a real agent subprocess (the scripted agent
requiring each kind of method): the refusal becomes a sign-in offering the agent's methods, and each
method works end to end (authenticate; a key in the keyring and a restart; the agent's own login
command on a real PTY the test types into)."""

from __future__ import annotations

import asyncio
import json

import keyring
import pytest

from app.contract.errors import HostError, LoadFailed, SignInRequired
from app.main.agents.secret_store import INDEX_FILE, SERVICE
from app.main.agents.sign_in import NO_KEYRING
from tests.conftest import scripted_agent_argv


def _sign_ins(envelopes) -> list:
    return envelopes.of_kind("sign_in")


async def _refused(service, envelopes):
    with pytest.raises(SignInRequired) as info:
        await service.new_session()
    assert service.connection.state == "sign-in"
    assert envelopes.of_kind("agent_state")[-1].state == "sign-in"
    return info.value, _sign_ins(envelopes)[-1]


async def test_an_agent_method_calls_authenticate_and_a_chat_opens_then(make_service):
    service, envelopes = make_service(scripted_agent_argv("--auth=agent"))
    error, offer = await _refused(service, envelopes)
    assert str(error) == "Authentication required."
    assert offer.phase == "needed" and offer.reason == "Authentication required."
    assert [(m.id, m.name, m.kind, m.description) for m in offer.methods] == [
        ("scripted-oauth", "Log in with Scripted", "agent", "Opens your browser")
    ]
    with pytest.raises(HostError):
        await service.sign_in.authenticate("not-offered")
    assert await service.sign_in.authenticate("scripted-oauth") is True
    assert [e.phase for e in _sign_ins(envelopes)][-2:] == ["working", "done"]
    assert service.connection.state == "ready"
    result = await service.new_session()
    assert result.session_key


async def test_an_env_var_method_keeps_the_key_in_the_keyring_and_restarts_the_agent(
    make_service, isolated_dirs
):
    service, envelopes = make_service(scripted_agent_argv("--auth=env"))
    _, offer = await _refused(service, envelopes)
    [method] = offer.methods
    assert method.kind == "env_var" and [(v.name, v.label, v.secret) for v in method.vars] == [
        ("SCRIPTED_API_KEY", "API key", True)
    ]
    first_pid = service.connection.pid
    assert await service.sign_in.use_env("scripted-key", {"SCRIPTED_API_KEY": " "}) is False
    assert _sign_ins(envelopes)[-1].error == "Enter API key first."
    assert await service.sign_in.use_env("scripted-key", {"SCRIPTED_API_KEY": "sk-scripted"}) is True
    assert service.connection.pid != first_pid  # restarted with the key in its environment
    assert _sign_ins(envelopes)[-1].phase == "done" and _sign_ins(envelopes)[-1].notice == ""
    assert (await service.new_session()).session_key
    # the key is in the keyring, and only its NAME is in ClawQt's files
    assert keyring.get_password(SERVICE, "scripted_agent:SCRIPTED_API_KEY") == "sk-scripted"
    index = (isolated_dirs / "data" / INDEX_FILE).read_text()
    assert json.loads(index) == {"scripted_agent": ["SCRIPTED_API_KEY"]} and "sk-scripted" not in index

    # the next run of the app starts the agent with the stored key: no sign-in at all
    again, again_envelopes = make_service(scripted_agent_argv("--auth=env"))
    assert (await again.new_session()).session_key
    assert _sign_ins(again_envelopes) == []


async def test_a_wrong_key_brings_the_sign_in_back_with_the_agents_words(make_service):
    service, envelopes = make_service(scripted_agent_argv("--auth=env"))
    await _refused(service, envelopes)
    assert await service.sign_in.use_env("scripted-key", {"SCRIPTED_API_KEY": "sk-wrong"}) is True
    _, offer = await _refused(service, envelopes)
    assert offer.phase == "needed" and offer.reason == "Authentication required."


async def test_without_a_keyring_the_key_works_for_this_run_and_the_user_is_told(make_service):
    from keyring.backends.fail import Keyring as NoKeyring

    keyring.set_keyring(NoKeyring())
    service, envelopes = make_service(scripted_agent_argv("--auth=env"))
    await _refused(service, envelopes)
    assert await service.sign_in.use_env("scripted-key", {"SCRIPTED_API_KEY": "sk-scripted"}) is True
    assert _sign_ins(envelopes)[-1].notice == NO_KEYRING
    assert (await service.new_session()).session_key


async def _terminal_text(envelopes, terminal_id: str) -> str:
    return "".join(e.data for e in envelopes.of_kind("sign_in_terminal") if e.terminal_id == terminal_id)


async def test_a_terminal_method_runs_the_agents_own_login_on_a_pty_the_user_types_into(
    make_service, tmp_path, monkeypatch
):
    token = tmp_path / "scripted-token"
    monkeypatch.setenv("SCRIPTED_AUTH_FILE", str(token))
    service, envelopes = make_service(scripted_agent_argv("--auth=terminal"))
    _, offer = await _refused(service, envelopes)
    [method] = offer.methods  # offered because ClawQt advertises clientCapabilities.auth.terminal
    assert (method.kind, method.args) == ("terminal", ("--login",))
    await service.sign_in.start_terminal("scripted-login")
    running = _sign_ins(envelopes)[-1]
    assert running.phase == "terminal" and running.terminal_id
    await envelopes.wait_for(
        lambda log: "Enter the code" in "".join(e.data for e in log.of_kind("sign_in_terminal"))
    )
    text = await _terminal_text(envelopes, running.terminal_id)
    assert "Scripted login (device mode)" in text  # the method's env reached the agent's own command
    service.sign_in.terminal_input("2468\r")
    await envelopes.wait_for(
        lambda log: log.of_kind("sign_in") and log.of_kind("sign_in")[-1].phase == "done", 20
    )
    ended = [e for e in envelopes.of_kind("sign_in_terminal") if e.exited]
    assert [(e.exit_code, e.signal) for e in ended] == [(0, None)]
    assert "Signed in." in await _terminal_text(envelopes, running.terminal_id)
    assert token.exists() and (await service.new_session()).session_key


async def test_a_failed_terminal_login_says_how_it_ended_and_stop_offers_the_methods_again(
    make_service, tmp_path, monkeypatch
):
    monkeypatch.setenv("SCRIPTED_AUTH_FILE", str(tmp_path / "never"))
    service, envelopes = make_service(scripted_agent_argv("--auth=terminal"))
    await _refused(service, envelopes)
    await service.sign_in.start_terminal("scripted-login")
    await envelopes.wait_for(
        lambda log: "Enter the code" in "".join(e.data for e in log.of_kind("sign_in_terminal"))
    )
    service.sign_in.terminal_input("1111\r")
    await envelopes.wait_for(lambda log: log.of_kind("sign_in")[-1].error, 10)
    assert _sign_ins(envelopes)[-1].error == "The sign-in ended with code 3."
    assert service.connection.state == "sign-in"  # nothing restarted
    await service.sign_in.start_terminal("scripted-login")  # again, and give up this time
    await envelopes.wait_for(lambda log: log.of_kind("sign_in")[-1].phase == "terminal")
    service.sign_in.stop_terminal()
    assert _sign_ins(envelopes)[-1].phase == "needed"
    await envelopes.wait_for(
        lambda log: len([e for e in log.of_kind("sign_in_terminal") if e.exited]) == 2, 10
    )
    assert [e.signal for e in envelopes.of_kind("sign_in_terminal") if e.exited][-1] == "SIGKILL"


async def test_an_agent_that_offers_no_method_still_shows_a_sign_in_with_its_words(make_service):
    """-32603 with "Not logged in" only on stderr, and no method to offer."""
    service, envelopes = make_service(scripted_agent_argv("--auth=words"))
    error, offer = await _refused(service, envelopes)
    assert offer.methods == () and "Query closed before response received" in str(error)


async def test_an_internal_error_opening_the_first_chat_of_an_agent_with_methods_offers_them(make_service):
    """Like claude-agent-acp 0.23.1 without a login: a terminal method, and session/new failing -32603
    "Query closed before response received" with nothing said about logging in."""
    service, envelopes = make_service(scripted_agent_argv("--auth=claude"))
    error, offer = await _refused(service, envelopes)
    assert "Query closed before response received" in str(error)
    assert [(m.id, m.kind, m.args) for m in offer.methods] == [("claude-login", "terminal", ("--cli",))]


async def test_other_failures_are_no_sign_in(make_service):
    service, envelopes = make_service(scripted_agent_argv("--fail-new=1"))
    with pytest.raises(LoadFailed) as info:
        await service.new_session()
    assert not isinstance(info.value, SignInRequired) and service.connection.state == "ready"
    assert _sign_ins(envelopes) == []
    await asyncio.sleep(0)  # one turn of the loop: what was left scheduled runs
