"""The user's own files replaced by something that is not a regular file: a FIFO (whose open waits for
a writer forever), a link to /dev/zero (endless), a folder, or a file far too large. Every store and
the config must refuse it with a sentence saying why, start with defaults, and leave it where it is.

Each read runs in a thread with a deadline, so a reader that would hang fails the test instead of the
suite; a FIFO is then opened for writing, which ends any read still waiting on it."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.main.agents.secret_store import INDEX_FILE, SecretStore
from app.main.core.problems import LocalProblems
from app.main.files.regular_files import read_user_file
from app.main.participation.service import TerminalParticipation
from app.main.stores.config import read_config
from app.main.stores.local import LocalStores
from app.main.stores.queued_messages import QueuedMessages
from app.main.stores.settings_file import SettingsFile
from app.main.stores.view_state import ViewStates
from app.main.terminals.user import UserTerminals

DEADLINE_S = 10


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _folder(path: Path) -> None:
    path.mkdir()


SPECIALS: dict[str, Callable[[Path], None]] = {"fifo": _fifo, "dev-zero": _dev_zero, "folder": _folder}


def _within_deadline(read: Callable[[], Any], path: Path) -> Any:
    """`read()`'s result, or a failed test when it does not return within the deadline."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = read()
        except BaseException as exc:  # handed to the test below
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(DEADLINE_S)
    if thread.is_alive():
        if path.is_fifo():  # release the reader so it does not outlive the test
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"reading {path.name} did not return within {DEADLINE_S} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _stores(data: Path, problems: LocalProblems) -> dict[str, Callable[[], Any]]:
    return {
        "window-state.json": lambda: ViewStates(data, problems),
        "chat-views.json": lambda: ViewStates(data, problems),
        "queued-messages.json": lambda: QueuedMessages(data, problems),
        "drafts.json": lambda: LocalStores(data, problems),
    }


@pytest.mark.parametrize("kind", sorted(SPECIALS))
@pytest.mark.parametrize(
    "name", ["window-state.json", "chat-views.json", "queued-messages.json", "drafts.json"]
)
def test_a_store_that_is_not_a_regular_file_is_refused_reported_and_left_in_place(tmp_path, name, kind):
    data = tmp_path / "data"
    data.mkdir()
    target = data / name
    SPECIALS[kind](target)
    problems = LocalProblems()

    _within_deadline(_stores(data, problems)[name], target)

    [problem] = [p for p in problems.reported() if name in p.text]
    assert "cannot be read (not a regular file)" in problem.text
    assert "left as it is" in problem.text
    assert os.path.lexists(target) and not target.is_file()  # never replaced by a store's own file


@pytest.mark.parametrize("kind", sorted(SPECIALS))
def test_terminal_access_settings_that_are_not_a_file_start_afresh_without_a_hang(tmp_path, kind):
    data = tmp_path / "data"
    data.mkdir()
    target = data / "terminal-access.json"
    SPECIALS[kind](target)

    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    participation = _within_deadline(
        lambda: TerminalParticipation(terminals, lambda _key: "Agent", data), target
    )

    secret = _within_deadline(lambda: participation.install_secret, target)
    assert secret.startswith("cqi_")  # a new install secret, no hang


@pytest.mark.parametrize("kind", sorted(SPECIALS))
def test_a_config_that_is_not_a_file_gives_the_defaults_and_says_why(tmp_path, kind):
    config = tmp_path / "config.json"
    SPECIALS[kind](config)

    read = _within_deadline(lambda: read_config(config), config)

    [problem] = read.problems
    assert f"{config}" in problem.text and "cannot be read (not a regular file)" in problem.text
    assert read.agent_argv is None  # the defaults apply
    settings = SettingsFile(config)
    refusal = _within_deadline(lambda: settings._update(lambda data: data.update(x=1)), config)
    assert "cannot be read (not a regular file)" in refusal  # and nothing is written over it
    assert os.path.lexists(config) and not config.is_file()


@pytest.mark.parametrize("kind", sorted(SPECIALS))
def test_the_secret_index_that_is_not_a_file_is_an_empty_index(tmp_path, kind):
    index = tmp_path / INDEX_FILE
    SPECIALS[kind](index)
    store = SecretStore(tmp_path)

    assert _within_deadline(store._index, index) == {}


def test_a_file_larger_than_the_cap_is_refused_with_its_size(tmp_path):
    big = tmp_path / "config.json"
    big.write_bytes(b" " * 2049)
    with pytest.raises(OSError, match="larger than 2 KiB"):
        read_user_file(big, 2048)
    assert read_user_file(big, 4096) == b" " * 2049


def test_a_link_to_a_regular_file_is_followed(tmp_path):
    """Dotfiles are often links: a link to a regular file is read as the file."""
    real = tmp_path / "dotfiles-config.json"
    real.write_text('{"agent": "demo"}')
    link = tmp_path / "config.json"
    link.symlink_to(real)
    assert read_user_file(link) == b'{"agent": "demo"}'
