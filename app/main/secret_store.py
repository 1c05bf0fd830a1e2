"""The values a user typed for an agent's `env_var` sign-in (API keys): kept in the system keyring, put
into the agent's environment at every start. Which variables an agent has stored is listed in a small
file beside the drafts (names only, never values), so an agent with none costs no keyring access at
startup. Without a usable keyring the values are kept for this run only, and the caller says so."""

from __future__ import annotations

import json
import logging
from pathlib import Path

log = logging.getLogger(__name__)

SERVICE = "ClawQt"
INDEX_FILE = "sign-in-vars.json"


class SecretStore:
    def __init__(self, data_dir: Path) -> None:
        self._index_path = data_dir / INDEX_FILE
        self._memory: dict[tuple[str, str], str] = {}  # values the keyring could not keep

    def _index(self) -> dict[str, list[str]]:
        try:
            index = json.loads(self._index_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return index if isinstance(index, dict) else {}

    def _write_index(self, index: dict[str, list[str]]) -> None:
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


__all__ = ["SecretStore"]
