"""The agent's `authMethods` read into the contract's AuthMethods, and whether a refusal means "sign in
first". Both are decisions of the main side: the renderer shows what comes out of here.

Kinds (ACP schema): no `type` or `"agent"` (the agent signs in itself when asked by `authenticate`),
`"env_var"` (the client sets variables and restarts the agent), `"terminal"` (the client runs the
agent's own command with extra args/env where the user can type). Unknown kinds are left out: there is
nothing the user could do with them here."""

from __future__ import annotations

import re
from typing import Any

from app.contract.acp_fields import dict_field, str_field
from app.contract.sign_in import AuthKind, AuthMethod, AuthVar

AUTH_REQUIRED = -32000  # ACP's error code for "authentication required"
# what an agent says when nobody is signed in, in its error or on stderr (claude-agent-acp answers
# -32603 "Query closed before response received" and says "Not logged in" only on stderr)
_SIGNED_OUT = re.compile(
    r"auth(entication|orization)?[ _-]required|not (logged|signed) in|log ?in (is )?required"
    r"|please (run )?/?log ?in|unauthori[sz]ed|invalid api[ _-]?key"
    r"|api[ _-]?key (is )?(missing|required|not set)",
    re.IGNORECASE,
)
GATED_METHODS = frozenset({"session/new", "session/load", "session/resume", "session/prompt", "session/list"})
_KINDS: dict[str, AuthKind] = {"agent": "agent", "env_var": "env_var", "terminal": "terminal"}


def parse_auth_methods(raw: Any) -> tuple[AuthMethod, ...]:
    """Every well-formed method the client can run, in the agent's order."""
    if not isinstance(raw, list | tuple):
        return ()
    methods = []
    for entry in raw:
        method = _method(entry) if isinstance(entry, dict) else None
        if method is not None:
            methods.append(method)
    return tuple(methods)


def _method(entry: dict[str, Any]) -> AuthMethod | None:
    method_id, kind = entry.get("id"), _KINDS.get(entry.get("type") or "agent")
    if not isinstance(method_id, str) or not method_id or kind is None:
        return None
    name = str_field(entry, "name") or method_id
    description = str_field(entry, "description") or ""
    found = (_var(v) for v in entry.get("vars") or [] if isinstance(v, dict))
    variables = tuple(var for var in found if var is not None)
    if kind == "env_var" and not variables:
        return None  # nothing to ask for
    args = tuple(a for a in entry.get("args") or [] if isinstance(a, str)) if kind == "terminal" else ()
    raw_env = dict_field(entry, "env")
    env = tuple((k, v) for k, v in raw_env.items() if isinstance(k, str) and isinstance(v, str))
    return AuthMethod(method_id, name, description, kind, variables, args, env if kind == "terminal" else ())


def _var(entry: dict[str, Any]) -> AuthVar | None:
    name = entry.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        return None
    label = str_field(entry, "label") or name
    secret = secret_value if isinstance(secret_value := entry.get("secret"), bool) else True
    optional = optional_value if isinstance(optional_value := entry.get("optional"), bool) else False
    return AuthVar(name, label, secret, optional)


INTERNAL_ERROR = -32603


def is_sign_in_refusal(
    method: str, rpc_code: int, message: str, data: Any, stderr_tail: str, offers_methods: bool = False
) -> bool:
    """Whether the agent refused `method` because nobody is signed in: ACP's auth-required code, its
    words for it in the error or in the last stderr lines, or an agent that offers sign-in methods
    failing to open a chat at all with an internal error (claude-agent-acp 0.23.1 without a login
    answers -32603 "Query closed before response received" and says nothing about logging in: its
    methods are then offered, with its words, and "try again" stays possible)."""
    if method not in GATED_METHODS:
        return False
    if rpc_code == AUTH_REQUIRED:
        return True
    if offers_methods and method == "session/new" and rpc_code == INTERNAL_ERROR:
        return True
    return bool(_SIGNED_OUT.search(f"{message}\n{data if data is not None else ''}\n{stderr_tail}"))


__all__ = ["AUTH_REQUIRED", "GATED_METHODS", "is_sign_in_refusal", "parse_auth_methods"]
