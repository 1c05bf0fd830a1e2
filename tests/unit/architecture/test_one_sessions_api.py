"""The sessions API is declared once, in `app/contract/host_api.py` (`SessionsHost`, with the prompt's
options in `PromptOptions`): the hub the window talks to implements every member with exactly the
Protocol's signature, and each agent's `ChatService` with the same parameters (it may add keyword
options of its own after them). A parameter written again by hand in either, or drifting from the
Protocol, fails here by name."""

from __future__ import annotations

import inspect

from app.contract.host_api import SessionsHost
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService


def _members() -> list[str]:
    return [name for name in vars(SessionsHost) if not name.startswith("_")]


def _mismatches(implementation: type, *, extra_options: bool) -> list[str]:
    found = []
    for name in _members():
        declared = inspect.getattr_static(SessionsHost, name)
        written = inspect.getattr_static(implementation, name, None)
        if written is None:
            found.append(f"{implementation.__name__}.{name} is missing")
        elif isinstance(declared, property) or isinstance(written, property):
            if not (isinstance(declared, property) and isinstance(written, property)):
                found.append(f"{implementation.__name__}.{name}: a property in one, not the other")
        else:
            want = list(inspect.signature(declared).parameters.values())
            got = list(inspect.signature(written).parameters.values())
            drifted = got[: len(want)] != want
            unasked = [
                p for p in got[len(want) :] if not extra_options or p.default is inspect.Parameter.empty
            ]
            if drifted or unasked:
                found.append(f"{implementation.__name__}.{name}{inspect.signature(written)}")
    return found


def test_the_hub_implements_the_sessions_api_exactly_as_declared():
    assert _mismatches(AgentHub, extra_options=False) == []


def test_each_chat_service_takes_the_declared_parameters():
    assert _mismatches(ChatService, extra_options=True) == []


def test_a_prompt_option_is_declared_once_and_reaches_the_service_whole():
    prompt = inspect.signature(AgentHub.prompt).parameters
    assert [p.kind for p in prompt.values()][-1] is inspect.Parameter.VAR_KEYWORD
    assert str(prompt["options"].annotation) == "Unpack[PromptOptions]"
