"""The values a user typed for an agent's `env_var` sign-in (API keys): kept in the system keyring, put
into the agent's environment at every start. Which variables an agent has stored is listed in a small
file beside the drafts (names only, never values), so an agent with none costs no keyring access at
startup. Without a usable keyring the values are kept for this run only, and the caller says so."""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path

from app.main.core.json_files import Unusable, keep_aside, parse_object
from app.main.files.regular_files import read_user_file

log = logging.getLogger(__name__)

SERVICE = "ClawQt"
INDEX_FILE = "sign-in-vars.json"


class SecretStore:
    def __init__(self, data_dir: Path) -> None:
        self._index_path = data_dir / INDEX_FILE
        self._memory: dict[tuple[str, str], str] = {}  # values the keyring could not keep
        self._unusable: bytes | None = None  # an index not used as it was: copied aside before a write

    def _index(self) -> dict[str, list[str]]:
        try:
            raw = read_user_file(self._index_path)
        except OSError:
            return {}
        index = parse_object(raw)
        if isinstance(index, Unusable):
            log.warning("%s %s (%s); starting afresh", self._index_path, index.why, index.details)
            self._unusable = raw
            return {}
        names = {k: [n for n in v if isinstance(n, str)] for k, v in index.items() if isinstance(v, list)}
        if names != index:  # entries of the wrong type are left out: the original is kept before a write
            self._unusable = raw
        return names

    def _write_index(self, index: dict[str, list[str]]) -> None:
        if self._unusable is not None:
            kept = keep_aside(self._index_path, self._unusable)  # OSError: not written over
            log.warning("kept the earlier %s as %s before writing it", self._index_path, kept.name)
            self._unusable = None
        self._index_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._index_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(index, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(self._index_path)

    def env_for(self, agent: str) -> dict[str, str]:
        """Every stored variable of `agent` (an unreadable one is left out and logged)."""
        names = [n for n in self._index().get(agent, []) if isinstance(n, str)]
        env = {name: self._memory[(agent, name)] for name in names if (agent, name) in self._memory}
        missing = [name for name in names if name not in env]
        if missing:
            try:
                import keyring

                for name in missing:
                    value = keyring.get_password(SERVICE, f"{agent}:{name}")
                    if value is not None:
                        env[name] = value
            except Exception as exc:  # no backend, locked keyring, D-Bus gone: start without them
                log.warning("cannot read the keyring for %s: %s", agent, exc)
        return env

    def store(self, agent: str, values: dict[str, str]) -> bool:
        """Keep `values` for `agent`; False when only for this run (no usable keyring)."""
        persisted = True
        try:
            import keyring

            for name, value in values.items():
                keyring.set_password(SERVICE, f"{agent}:{name}", value)
        except Exception as exc:
            log.warning("cannot write to the keyring for %s: %s", agent, exc)
            persisted = False
            for name, value in values.items():
                self._memory[(agent, name)] = value
        index = self._index()
        index[agent] = sorted(set(index.get(agent, [])) | set(values))
        try:
            self._write_index(index)
        except OSError as exc:
            log.warning("cannot write %s: %s", self._index_path, exc)
        return persisted

    def forget(self, agent: str) -> None:
        """Every value kept for `agent` removed (from the keyring and from this run's memory)."""
        index = self._index()
        names = [n for n in index.pop(agent, []) if isinstance(n, str)]
        for name in names:
            self._memory.pop((agent, name), None)
        try:
            import keyring
            import keyring.errors

            for name in names:
                with contextlib.suppress(keyring.errors.PasswordDeleteError):  # never kept there
                    keyring.delete_password(SERVICE, f"{agent}:{name}")
        except Exception as exc:  # no backend, locked keyring: what it kept stays there
            log.warning("cannot remove %s's values from the keyring: %s", agent, exc)
        try:
            self._write_index(index)
        except OSError as exc:
            log.warning("cannot write %s: %s", self._index_path, exc)


__all__ = ["SecretStore"]
