"""The terminal tools' install secret kept in the keyring where one works (a real keyring backend
writing a file this test owns, tests/conftest.py), in terminal-access.json (0600) where none does; read
only when first needed; a secret of an older run moved out of the file."""

from __future__ import annotations

import json
import stat

import keyring
import pytest
from keyring.backends import fail

from app.main.participation.install_secret import IN_KEYRING, KEYRING_NAME, KEYRING_SERVICE
from app.main.participation.service import TerminalParticipation
from app.main.terminals.user import UserTerminals


@pytest.fixture
def terminals(tmp_path) -> UserTerminals:
    return UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])


def settings_of(tmp_path) -> dict:
    return json.loads((tmp_path / "data" / "terminal-access.json").read_text())


def participation(terminals, tmp_path) -> TerminalParticipation:
    return TerminalParticipation(terminals, lambda _key: "Agent", tmp_path / "data")


def test_a_new_secret_lives_in_the_keyring_and_the_file_only_says_so(terminals, tmp_path):
    first = participation(terminals, tmp_path)
    secret = first.install_secret
    assert secret.startswith("cqi_") and len(secret) > 40
    assert keyring.get_password(KEYRING_SERVICE, KEYRING_NAME) == secret
    assert settings_of(tmp_path)["secret"] == IN_KEYRING
    assert secret not in (tmp_path / "data" / "terminal-access.json").read_text()
    assert participation(terminals, tmp_path).install_secret == secret  # the next start reads it back
    assert first.tools.admits_bearer(secret) and not first.tools.admits_bearer(secret + "x")


def test_a_secret_an_older_run_kept_in_the_file_moves_to_the_keyring(terminals, tmp_path):
    (tmp_path / "data").mkdir()
    older = "cqi_" + "k" * 43
    (tmp_path / "data" / "terminal-access.json").write_text(
        json.dumps({"secret": older, "port": 0, "connected": {"openclaw": "http://127.0.0.1:9/mcp"}})
    )
    moved = participation(terminals, tmp_path)
    assert moved.install_secret == older  # OpenClaw's config still holds it: the same secret
    assert keyring.get_password(KEYRING_SERVICE, KEYRING_NAME) == older
    kept = settings_of(tmp_path)
    assert kept["secret"] == IN_KEYRING and kept["connected"] == {"openclaw": "http://127.0.0.1:9/mcp"}


def test_without_a_usable_keyring_the_secret_stays_in_the_private_file(terminals, tmp_path):
    keyring.set_keyring(fail.Keyring())
    secret = participation(terminals, tmp_path).install_secret
    path = tmp_path / "data" / "terminal-access.json"
    assert settings_of(tmp_path)["secret"] == secret and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert participation(terminals, tmp_path).install_secret == secret


def test_a_secret_the_keyring_lost_is_replaced_and_connected_agents_are_offered_connect_again(
    terminals, tmp_path
):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "terminal-access.json").write_text(
        json.dumps({"secret": IN_KEYRING, "port": 0, "connected": {"openclaw": "http://127.0.0.1:9/mcp"}})
    )
    replaced = participation(terminals, tmp_path)
    secret = replaced.install_secret
    assert secret.startswith("cqi_") and keyring.get_password(KEYRING_SERVICE, KEYRING_NAME) == secret
    assert settings_of(tmp_path)["connected"] == {} and not replaced.connected("openclaw")


def test_the_keyring_is_not_touched_until_the_secret_is_needed(terminals, tmp_path, monkeypatch):
    touched: list[str] = []
    monkeypatch.setattr(keyring, "get_password", lambda *args: touched.append("get"))
    monkeypatch.setattr(keyring, "set_password", lambda *args: touched.append("set"))
    started = participation(terminals, tmp_path)
    assert started.reserve() is not None and touched == []
    assert started.install_secret.startswith("cqi_") and touched
