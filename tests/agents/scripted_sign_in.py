"""The scripted agent's sign-in (`--auth=MODE`, see scripted_agent.py): the methods it offers per mode,
whether it takes chats yet, and its own login command (`--login`), which a client runs on a terminal."""

from __future__ import annotations

import os
from typing import Any

AUTH_METHODS: dict[str, list[dict[str, Any]]] = {
    "agent": [{"id": "scripted-oauth", "name": "Log in with Scripted", "description": "Opens your browser"}],
    "env": [
        {
            "type": "env_var",
            "id": "scripted-key",
            "name": "Use an API key",
            "description": "From your Scripted account page",
            "vars": [{"name": "SCRIPTED_API_KEY", "label": "API key"}],
        }
    ],
    "claude": [
        {
            "type": "terminal",
            "id": "claude-login",
            "name": "Log in with Claude",
            "description": "Run `claude /login` in the terminal",
            "args": ["--cli"],
        }
    ],
    "terminal": [
        {
            "type": "terminal",
            "id": "scripted-login",
            "name": "Log in in a terminal",
            "description": "Runs the Scripted login",
            "args": ["--login"],
            "env": {"SCRIPTED_LOGIN_MODE": "device"},
        }
    ],
}
LOGIN_CODE = "2468"


def signed_in(mode: str | None, authenticated: bool) -> bool:
    """Whether the agent started with `--auth=MODE` takes chats now (`authenticated`: its
    `authenticate` succeeded)."""
    if mode == "agent":
        return authenticated
    if mode == "env":
        return os.environ.get("SCRIPTED_API_KEY") == "sk-scripted"
    if mode == "terminal":
        return os.path.exists(os.environ.get("SCRIPTED_AUTH_FILE", "/nonexistent"))
    return mode not in ("claude", "words")


def login() -> int:
    """`--login`: the agent's own login command, run by the client on a terminal."""
    mode = os.environ.get("SCRIPTED_LOGIN_MODE", "?")
    print(f"Scripted login ({mode} mode)", flush=True)
    code = input("Enter the code 2468 to sign in: ").strip()
    if code != LOGIN_CODE:
        print("\x1b[31mWrong code.\x1b[0m", flush=True)
        return 3
    with open(os.environ["SCRIPTED_AUTH_FILE"], "w") as token:
        token.write("token\n")
    print("\x1b[32mSigned in.\x1b[0m", flush=True)
    return 0
