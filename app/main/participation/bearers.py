"""Per-session bearers for agents that take MCP servers in `session/new|load|resume`.

Each bearer (`cqs_` + 32 random bytes) stands for one chat: it admits a request to the terminal tools
and, without a `contextToken` argument, names the chat whose live capability the call acts with (only
the user's messages keep that alive). Issued unbound before the request, bound when the session opens,
forgotten when the open fails or the chat ends. Memory only."""

from __future__ import annotations

import secrets

from app.main.participation.capabilities import token_digest


class SessionBearers:
    """Per-session bearers given to agents that take MCP servers in `session/new|load|resume`: each
    stands for one chat (whose capability only the user's messages keep alive). Issued before the
    session exists, bound when it opens, forgotten when the chat ends."""

    def __init__(self) -> None:
        self._session_of: dict[bytes, str | None] = {}
        self._bearers_of: dict[str, set[str]] = {}

    def issue_unbound(self) -> str:
        bearer = "cqs_" + secrets.token_urlsafe(32)
        self._session_of[token_digest(bearer)] = None
        return bearer

    def bind(self, bearer: str, session_key: str) -> None:
        digest = token_digest(bearer)
        if digest in self._session_of:
            self._session_of[digest] = session_key
            self._bearers_of.setdefault(session_key, set()).add(bearer)

    def known(self, bearer: str) -> bool:
        return bearer.startswith("cqs_") and token_digest(bearer) in self._session_of

    def session_of(self, bearer: str) -> str | None:
        return self._session_of.get(token_digest(bearer)) if bearer.startswith("cqs_") else None

    def has_session(self, session_key: str) -> bool:
        return bool(self._bearers_of.get(session_key))

    def forget_bearer(self, bearer: str) -> None:
        session_key = self._session_of.pop(token_digest(bearer), None)
        if session_key is not None:
            self._bearers_of.get(session_key, set()).discard(bearer)

    def forget(self, session_key: str) -> None:
        for bearer in self._bearers_of.pop(session_key, set()):
            self._session_of.pop(token_digest(bearer), None)
