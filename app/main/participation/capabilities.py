"""Capabilities: what lets an agent's terminal tool call act for one chat, and only while the user is active.

A capability is a 256-bit random token bound to one chat's session key. Only the user's own action
creates or extends one (`mint_for_user_message`, called when the user sends a message in that chat): a
model cannot authorize itself by naming a chat, a user or a terminal. Tokens live in memory only, for an
hour, at most `MAX_LIVE_CAPABILITIES` at once (the least recently refreshed is evicted); they are looked up
by SHA-256 digest, so no comparison runs character by character over a secret. Every tool call asks
`check` at that moment: expiry and binding are never cached. A terminal the user pinned to a chat
answers only that chat's token; an unpinned one every chat's.

Pure: no Qt, no I/O; the clock is a parameter so tests move time instead of sleeping.
"""

from __future__ import annotations

import enum
import hashlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

TOKEN_BYTES = 32  # 256 bits of randomness
TOKEN_PREFIX = "cqt_"  # lets the hidden-context stripper and log scrubbers recognise a token
CAPABILITY_LIFETIME_SECONDS = 3600.0
MAX_LIVE_CAPABILITIES = 256
# Longer strings are not tokens of ours; refusing them early avoids hashing whatever a model sends.
MAX_TOKEN_CHARS = 128


class Refusal(enum.Enum):
    """Why a capability does not authorize a call; the tool layer turns it into an error message."""

    UNKNOWN = "unknown capability (never issued, evicted or revoked)"
    EXPIRED = "capability expired: the user has to send a message in the chat again"
    OTHER_CHAT = "the terminal is pinned to another chat"


@dataclass(frozen=True, slots=True)
class Capability:
    token: str
    session_key: str
    expires_at: float


@dataclass(frozen=True, slots=True)
class CapabilityCheck:
    """The answer for one tool call: the chat it acts for, or why it is refused."""

    session_key: str | None
    refusal: Refusal | None

    @property
    def allowed(self) -> bool:
        return self.refusal is None


@dataclass(slots=True)
class _Entry:
    token: str
    session_key: str
    expires_at: float


def token_digest(token: str) -> bytes:
    """What the stores keep of a token (its SHA-256), so a token is looked up without being kept twice."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class CapabilityStore:
    """The live capabilities, one per chat, oldest (least recently refreshed) first."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._by_digest: OrderedDict[bytes, _Entry] = OrderedDict()
        self._digest_of_session: dict[str, bytes] = {}

    def mint_for_user_message(self, session_key: str, now: float | None = None) -> Capability:
        """The user sent a message in `session_key`'s chat: extend its live capability, else mint one.

        Refreshing keeps the token the agent already holds working for another hour from this action.
        """
        now = self._clock() if now is None else now
        self._forget_expired(now)
        expires_at = now + CAPABILITY_LIFETIME_SECONDS
        digest = self._digest_of_session.get(session_key)
        if digest is not None:
            entry = self._by_digest[digest]
            entry.expires_at = expires_at
            self._by_digest.move_to_end(digest)
            return Capability(entry.token, session_key, expires_at)
        token = TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
        digest = token_digest(token)
        self._by_digest[digest] = _Entry(token, session_key, expires_at)
        self._digest_of_session[session_key] = digest
        while len(self._by_digest) > MAX_LIVE_CAPABILITIES:
            self._remove(next(iter(self._by_digest)))
        return Capability(token, session_key, expires_at)

    def check(self, token: object, terminal_pin: str | None, now: float | None = None) -> CapabilityCheck:
        """May `token` act on a terminal pinned to `terminal_pin` (None: not pinned) at this moment?"""
        now = self._clock() if now is None else now
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
            return CapabilityCheck(None, Refusal.UNKNOWN)
        digest = token_digest(token)
        entry = self._by_digest.get(digest)
        if entry is None:
            return CapabilityCheck(None, Refusal.UNKNOWN)
        if now >= entry.expires_at:
            self._remove(digest)
            return CapabilityCheck(entry.session_key, Refusal.EXPIRED)
        if terminal_pin is not None and terminal_pin != entry.session_key:
            return CapabilityCheck(entry.session_key, Refusal.OTHER_CHAT)
        return CapabilityCheck(entry.session_key, None)

    def current_token(self, session_key: str, now: float | None = None) -> str | None:
        """The chat's live capability (not refreshed: only the user's message does that), or None."""
        digest = self._digest_of_session.get(session_key)
        if digest is None:
            return None
        entry = self._by_digest[digest]
        if (self._clock() if now is None else now) >= entry.expires_at:
            self._remove(digest)
            return None
        return entry.token

    def revoke_session(self, session_key: str) -> None:
        """The chat is gone (closed or deleted): its capability stops working at once."""
        digest = self._digest_of_session.get(session_key)
        if digest is not None:
            self._remove(digest)

    def live_count(self, now: float | None = None) -> int:
        now = self._clock() if now is None else now
        self._forget_expired(now)
        return len(self._by_digest)

    def _forget_expired(self, now: float) -> None:
        expired = [digest for digest, entry in self._by_digest.items() if now >= entry.expires_at]
        for digest in expired:
            self._remove(digest)

    def _remove(self, digest: bytes) -> None:
        entry = self._by_digest.pop(digest)
        if self._digest_of_session.get(entry.session_key) == digest:
            del self._digest_of_session[entry.session_key]
