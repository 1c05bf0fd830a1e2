"""Signing in to an agent (ACP `authMethods`): the ways an agent offers, and the state of the sign-in
the main side drives. Plain data: the main side decides that a sign-in is needed and runs every method
(it calls `authenticate`, keeps secrets in the system keyring, restarts the agent, runs the agent's own
login command on a terminal); the renderer only shows this and passes the user's choices back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

AuthKind = Literal["agent", "env_var", "terminal"]


@dataclass(frozen=True)
class AuthVar:
    """One environment variable an `env_var` method needs."""

    name: str
    label: str  # what the form calls it (the agent's label, else the variable's name)
    secret: bool = True  # masked while typed, kept in the keyring
    optional: bool = False


@dataclass(frozen=True)
class AuthMethod:
    id: str
    name: str
    description: str
    kind: AuthKind
    vars: tuple[AuthVar, ...] = ()  # env_var: what to ask for
    args: tuple[str, ...] = ()  # terminal: added to the agent's own command
    env: tuple[tuple[str, str], ...] = ()  # terminal: added to its environment


SignInPhase = Literal["needed", "working", "terminal", "done"]


@dataclass(frozen=True)
class SignInEnvelope:
    """Where the sign-in stands: `needed` (the agent refused; choose a method), `working` (a method
    runs: authenticate, or the agent restarting with new credentials), `terminal` (the agent's login
    command runs on `terminal_id`: the user types into it), `done` (signed in; open a chat again)."""

    phase: SignInPhase
    agent_label: str
    reason: str  # the agent's own words for the refusal
    methods: tuple[AuthMethod, ...] = ()
    method_id: str = ""  # the method working or running in the terminal
    error: str = ""  # the last attempt's failure, one sentence
    notice: str = ""  # something to know that is no failure ("kept for this run only: no keyring")
    terminal_id: str = ""
    kind: Literal["sign_in"] = field(default="sign_in")


@dataclass(frozen=True)
class SignInTerminalEnvelope:
    """Output of the login command's terminal (decoded text), and its exit when it ended."""

    terminal_id: str
    data: str
    exited: bool = False
    exit_code: int | None = None
    signal: str | None = None
    kind: Literal["sign_in_terminal"] = "sign_in_terminal"


__all__ = [
    "AuthKind",
    "AuthMethod",
    "AuthVar",
    "SignInEnvelope",
    "SignInPhase",
    "SignInTerminalEnvelope",
]
