"""The terminal tools' install secret (`cqi_`): the bearer an agent that takes no per-session servers
(OpenClaw) is configured with once. Kept in the system keyring where one works; else in
`terminal-access.json` (mode 0600), as before. The file then says where it is (`"secret": "keyring"`).

Ownership: `InstallSecret` reads and changes the `secret` field of the settings it is given; the owner
(`TerminalParticipation`) writes the file when `changed` says so. The keyring is first touched when the
secret is first needed (the server starts, OpenClaw is connected), never at app start: a locked keyring
asks the user only when terminal access is used.

A secret found in the file is moved to the keyring when one works. A secret the file says is in the
keyring but the keyring cannot give (none, locked, gone) is replaced by a new one, and the agents
connected with the old one are forgotten (they are offered "Connect" again). The copy in OpenClaw's own
config (`openclaw mcp set` writes the header) stays where OpenClaw keeps it."""

from __future__ import annotations

import logging
import secrets
from typing import Any, TypeGuard

log = logging.getLogger(__name__)

KEYRING_SERVICE = "ClawQt"
KEYRING_NAME = "terminal-tools-install-secret"
IN_KEYRING = "keyring"
MIN_LENGTH = 32


def new_secret() -> str:
    return "cqi_" + secrets.token_urlsafe(32)


def _usable(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and len(value) >= MIN_LENGTH and value != IN_KEYRING


class InstallSecret:
    def __init__(self, settings: dict[str, Any]) -> None:
        self._settings = settings  # terminal-access.json's fields, shared with the owner
        self._value: str | None = None
        self.changed = False  # the settings changed: the owner writes the file

    @property
    def in_keyring(self) -> bool:
        return self._settings.get("secret") == IN_KEYRING

    def value(self) -> str:
        if self._value is None:
            self._value = self._load()
        return self._value

    def _load(self) -> str:
        stored = self._settings.get("secret")
        if _usable(stored):
            if _keyring_set(stored):
                self._keep(IN_KEYRING)  # moved out of the file
            return stored
        if stored == IN_KEYRING:
            found = _keyring_get()
            if _usable(found):
                return str(found)
            log.warning("the terminal tools' install secret is not in the keyring any more: a new one")
            self._settings["connected"] = {}
        fresh = new_secret()
        self._keep(IN_KEYRING if _keyring_set(fresh) else fresh)
        return fresh

    def _keep(self, field: str) -> None:
        self._settings["secret"] = field
        self.changed = True


def _keyring_get() -> str | None:
    try:
        import keyring

        return keyring.get_password(KEYRING_SERVICE, KEYRING_NAME)
    except Exception as error:  # no backend, locked, D-Bus gone
        log.warning("cannot read the keyring: %s", error)
        return None


def _keyring_set(value: str) -> bool:
    try:
        import keyring
        from keyring.backends import fail

        if isinstance(keyring.get_keyring(), fail.Keyring):
            return False
        keyring.set_password(KEYRING_SERVICE, KEYRING_NAME, value)
        return keyring.get_password(KEYRING_SERVICE, KEYRING_NAME) == value
    except Exception as error:
        log.info("the install secret stays in terminal-access.json: no usable keyring (%s)", error)
        return False


__all__ = ["IN_KEYRING", "KEYRING_NAME", "KEYRING_SERVICE", "InstallSecret", "new_secret"]
