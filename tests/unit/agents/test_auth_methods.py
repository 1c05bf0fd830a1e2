"""Reading an agent's `authMethods` and recognising a refusal for want of a sign-in (app/main)."""

from __future__ import annotations

from app.contract.sign_in import AuthVar
from app.main.agents.auth_methods import AUTH_REQUIRED, is_sign_in_refusal, parse_auth_methods

CODEX = [  # as @zed-industries/codex-acp 0.16.0 sends them
    {"id": "chatgpt", "name": "Login with ChatGPT", "description": "Use your ChatGPT login"},
    {
        "type": "env_var",
        "id": "codex-api-key",
        "name": "Use CODEX_API_KEY",
        "vars": [{"name": "CODEX_API_KEY"}],
    },
]
CLAUDE = [  # claude-agent-acp 0.23.1 to a client advertising auth.terminal
    {
        "id": "claude-login",
        "name": "Log in with Claude",
        "type": "terminal",
        "args": ["--cli"],
        "description": "Run `claude /login` in the terminal",
    }
]


def test_each_kind_is_read_with_what_the_client_needs_to_run_it():
    chatgpt, key = parse_auth_methods(CODEX)
    assert (chatgpt.kind, chatgpt.name, chatgpt.description) == (
        "agent",
        "Login with ChatGPT",
        "Use your ChatGPT login",
    )
    assert key.kind == "env_var" and key.vars == (AuthVar("CODEX_API_KEY", "CODEX_API_KEY", True, False),)
    [login] = parse_auth_methods(CLAUDE)
    assert (login.kind, login.args, login.env) == ("terminal", ("--cli",), ())


def test_malformed_or_unusable_methods_are_left_out():
    methods = parse_auth_methods(
        [
            {"name": "no id"},
            {"id": "x", "type": "carrier-pigeon"},  # a kind this client cannot run
            {"id": "y", "type": "env_var", "vars": []},  # nothing to ask for
            {
                "id": "z",
                "type": "env_var",
                "vars": [{"name": "BAD NAME; rm -rf"}, {"name": "OK_VAR", "secret": False}],
            },
            "not an object",
            {"id": "t", "type": "terminal", "args": ["--login", 3], "env": {"A": "1", "B": 2}},
        ]
    )
    assert [m.id for m in methods] == ["z", "t"]
    assert methods[0].vars == (AuthVar("OK_VAR", "OK_VAR", False, False),)
    assert (methods[1].args, methods[1].env) == (("--login",), (("A", "1"),))
    assert parse_auth_methods(None) == () and parse_auth_methods({"id": "x"}) == ()


def test_a_refusal_is_a_sign_in_by_acps_code_or_by_the_agents_words():
    assert is_sign_in_refusal("session/new", AUTH_REQUIRED, "Anything", None, "")
    assert is_sign_in_refusal(
        "session/new", -32603, "Internal error", None, "Not logged in · Please run /login"
    )
    assert is_sign_in_refusal("session/prompt", -32603, "Invalid API key provided", None, "")
    assert is_sign_in_refusal("session/load", -32603, "x", {"details": "401 Unauthorized"}, "")
    assert not is_sign_in_refusal("session/new", -32603, "the workspace is locked", None, "")
    assert not is_sign_in_refusal("fs/read_text_file", AUTH_REQUIRED, "x", None, "")  # not a chat request
    assert not is_sign_in_refusal("initialize", AUTH_REQUIRED, "x", None, "")


def test_an_internal_error_opening_a_chat_is_a_sign_in_only_for_an_agent_offering_methods():
    closed = {"details": "Query closed before response received"}  # claude-agent-acp 0.23.1, no login
    assert is_sign_in_refusal("session/new", -32603, "Internal error", closed, "", offers_methods=True)
    assert not is_sign_in_refusal("session/new", -32603, "Internal error", closed, "", offers_methods=False)
    assert not is_sign_in_refusal("session/prompt", -32603, "Internal error", closed, "", offers_methods=True)
    assert not is_sign_in_refusal("session/new", -32602, "Invalid params", None, "", offers_methods=True)
