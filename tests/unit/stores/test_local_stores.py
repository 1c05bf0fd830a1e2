"""The local stores (drafts, session names, previews) against hostile files and folders: each problem is
reported once with a specific sentence naming the file, the app goes on with what it could read (or in
memory), and a user file is never overwritten unless a copy of it is kept under a name of its own."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from app.main.core.problems import LocalProblems
from app.main.host.make import make_host
from app.main.stores.local import JsonStringMap, LocalStores


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def _asides(folder: Path, name: str = "drafts.json") -> list[Path]:
    return sorted(folder.glob(f"{name}.corrupt-*"))


@pytest.fixture
def read_only(monkeypatch: pytest.MonkeyPatch):
    """Make a folder read-only: chmod for an ordinary user; as root (who writes anyway) new files in it
    fail the way the kernel would fail them for a user."""

    made: list[Path] = []

    def apply(folder: Path) -> None:
        folder.chmod(0o555)
        made.append(folder)
        if os.geteuid() != 0:
            return
        real_mkstemp = tempfile.mkstemp
        real_open = open

        def refuse(where: object) -> None:
            if where is not None and Path(str(where)).resolve().is_relative_to(folder.resolve()):
                raise PermissionError(13, "Permission denied", str(where))

        def mkstemp(*args: object, **kwargs: object):
            refuse(kwargs.get("dir"))
            return real_mkstemp(*args, **kwargs)

        def guarded_open(file: object, mode: str = "r", *args: object, **kwargs: object):
            if any(flag in mode for flag in "wxa"):
                refuse(Path(str(file)).parent)
            return real_open(file, mode, *args, **kwargs)

        real_os_open = os.open

        def guarded_os_open(
            path: object, flags: int, *args: object, dir_fd: int | None = None, **kwargs: object
        ):
            # the atomic writer creates its temporary file by name inside the open folder (dir_fd)
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                where = (
                    Path(os.readlink(f"/proc/self/fd/{dir_fd}")) / str(path) if dir_fd else Path(str(path))
                )
                refuse(where.parent)
            return real_os_open(path, flags, *args, dir_fd=dir_fd, **kwargs)

        monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
        monkeypatch.setattr("builtins.open", guarded_open)
        monkeypatch.setattr(os, "open", guarded_os_open)

    yield apply
    for folder in made:
        folder.chmod(0o755)  # pytest removes tmp_path afterwards


def test_a_store_nested_deep_is_set_aside_with_a_message_not_a_crash(tmp_path):
    raw = '{"a": ' + _deep(100_000) + "}"
    (tmp_path / "drafts.json").write_text(raw)
    problems = LocalProblems()
    stores = LocalStores(tmp_path, problems)
    assert stores.drafts.items() == {}
    [problem] = problems.reported()
    assert "drafts file" in problem.text and "nested too deeply" in problem.text
    [aside] = _asides(tmp_path)
    assert aside.name in problem.text and aside.read_text() == raw


def test_corrupt_drafts_are_reported_naming_the_file_the_line_and_the_copy(tmp_path):
    raw = '{\n "s1": "kept?",\n oops\n}'
    (tmp_path / "drafts.json").write_text(raw)
    problems = LocalProblems()
    stores = LocalStores(tmp_path, problems)
    assert stores.drafts.get("s1") == ""
    [problem] = problems.reported()
    [aside] = _asides(tmp_path)
    assert problem.text == (
        f"Your drafts file {tmp_path / 'drafts.json'} is not valid JSON (line 3): starting without "
        f"saved drafts; the file is kept as {aside.name}."
    )
    assert "line 3" in problem.details
    assert aside.read_text() == raw
    assert json.loads((tmp_path / "drafts.json").read_text()) == {}  # started afresh, on disk too


def test_a_second_corruption_keeps_the_first_copy(tmp_path):
    contents = ["{first broken", "{second broken", "[third, broken"]
    for content in contents:  # within the same second: the copies' names still differ
        (tmp_path / "drafts.json").write_text(content)
        JsonStringMap("drafts.json", tmp_path)
    assert sorted(a.read_text() for a in _asides(tmp_path)) == sorted(contents)


def test_entries_of_the_wrong_type_are_left_out_with_a_message_and_the_original_is_kept(tmp_path):
    raw = json.dumps({"s1": "a draft", "s2": 42, "s3": ["x"], "s4": "another"})
    (tmp_path / "session-names.json").write_text(raw)
    problems = LocalProblems()
    stores = LocalStores(tmp_path, problems)
    assert stores.names.items() == {"s1": "a draft", "s4": "another"}
    [problem] = problems.reported()
    [aside] = _asides(tmp_path, "session-names.json")
    assert problem.text == (
        f"Your session names file {tmp_path / 'session-names.json'} has 2 entries that are not text: "
        f"they are left out; the original file is kept as {aside.name}."
    )
    assert aside.read_text() == raw
    assert json.loads((tmp_path / "session-names.json").read_text()) == {"s1": "a draft", "s4": "another"}


def test_a_store_that_is_not_an_object_is_set_aside(tmp_path):
    (tmp_path / "session-previews.json").write_text('["a", "b"]')
    problems = LocalProblems()
    LocalStores(tmp_path, problems)
    [problem] = problems.reported()
    assert "session previews file" in problem.text and "holds a list, not a JSON object" in problem.text
    assert _asides(tmp_path, "session-previews.json")


def test_an_unreadable_store_is_reported_and_never_overwritten(tmp_path):
    (tmp_path / "drafts.json").mkdir()  # reading it fails: it is not a file
    problems = LocalProblems()
    stores = LocalStores(tmp_path, problems)
    stores.drafts.set("s1", "typed")
    assert stores.drafts.get("s1") == "typed"  # kept in memory
    [problem] = problems.reported()
    assert problem.text.startswith(f"Your drafts file {tmp_path / 'drafts.json'} cannot be read (")
    assert "left as it is" in problem.text and "only until you quit" in problem.text
    assert (tmp_path / "drafts.json").is_dir()


def test_a_data_folder_that_is_a_file_is_reported_once_and_the_stores_work_in_memory(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    folder.write_text("not a folder")
    monkeypatch.setenv("CLAWQT_DATA_DIR", str(folder))
    problems = LocalProblems()
    stores = LocalStores(problems=problems)
    for n in range(3):
        stores.drafts.set("s1", f"draft {n}")
        stores.names.set("s1", "name")
    assert stores.drafts.get("s1") == "draft 2"
    assert [p.text for p in problems.reported()] == [
        f"Your data folder {folder} is a file, not a folder: drafts and session names are kept only "
        "until you quit."
    ]
    assert folder.read_text() == "not a folder"


def test_the_host_starts_when_the_data_folder_is_a_file(tmp_path, monkeypatch):
    from app.main.agents.command import AgentCommand
    from app.main.sessions.service import ChatService
    from tests.conftest import scripted_agent_argv

    folder = tmp_path / "data"
    folder.write_text("not a folder")
    monkeypatch.setenv("CLAWQT_DATA_DIR", str(folder))
    service = ChatService(AgentCommand(scripted_agent_argv(), "flag", "test"), cwd=str(tmp_path))
    host = make_host(service)
    [problem] = host.problems.reported()
    assert problem.text.startswith(f"Your data folder {folder} is a file")


def test_a_read_only_data_folder_is_reported_once_and_drafts_live_in_memory(tmp_path, read_only):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "drafts.json").write_text(json.dumps({"s1": "saved before"}))
    read_only(folder)
    problems = LocalProblems()
    stores = LocalStores(folder, problems)
    assert stores.drafts.get("s1") == "saved before"
    for n in range(3):
        stores.drafts.set("s1", f"typed {n}")
    assert stores.drafts.get("s1") == "typed 2"
    [problem] = problems.reported()
    assert problem.text.startswith(f"ClawQt cannot save to your data folder {folder} (")
    assert problem.text.endswith("): drafts and session names are kept only until you quit.")


def test_a_folder_that_turns_read_only_later_is_reported_at_the_first_failed_save(tmp_path, read_only):
    problems = LocalProblems()
    heard = []
    problems.subscribe(heard.append)
    stores = LocalStores(tmp_path, problems)
    stores.drafts.set("s1", "saved")
    assert problems.reported() == []
    read_only(tmp_path)
    stores.drafts.set("s1", "not saved")
    stores.names.set("s1", "not saved either")
    assert [p.text.split(" (")[0] for p in heard] == [f"ClawQt cannot save to your data folder {tmp_path}"]
    assert json.loads((tmp_path / "drafts.json").read_text()) == {"s1": "saved"}


def test_a_corrupt_store_in_a_read_only_folder_is_left_in_place(tmp_path, read_only):
    (tmp_path / "drafts.json").write_text("{broken")
    read_only(tmp_path)
    problems = LocalProblems()
    stores = LocalStores(tmp_path, problems)
    stores.drafts.set("s1", "typed")
    texts = [p.text for p in problems.reported()]
    assert any("is not valid JSON (line 1)" in t and "a copy could not be kept" in t for t in texts), texts
    assert (tmp_path / "drafts.json").read_text() == "{broken"
    assert _asides(tmp_path) == []


def test_problems_are_reported_once_each_and_listeners_hear_new_ones():
    problems = LocalProblems()
    heard = []
    unsubscribe = problems.subscribe(heard.append)
    problems.add("one", key="k")
    problems.add("one again", key="k")
    problems.add("two")
    unsubscribe()
    problems.add("three")
    assert [p.text for p in problems.reported()] == ["one", "two", "three"]
    assert [p.text for p in heard] == ["one", "two"]


def test_the_sign_in_index_nested_deep_is_no_crash_and_is_kept_before_it_is_rewritten(tmp_path):
    from app.main.agents.secret_store import INDEX_FILE, SecretStore

    raw = '{"agent": ' + _deep(100_000) + "}"
    (tmp_path / INDEX_FILE).write_text(raw)
    secrets = SecretStore(tmp_path)
    assert secrets.env_for("agent") == {}
    secrets.store("agent", {"API_KEY": "k"})
    assert json.loads((tmp_path / INDEX_FILE).read_text()) == {"agent": ["API_KEY"]}
    [aside] = _asides(tmp_path, INDEX_FILE)
    assert aside.read_text() == raw


def test_a_demo_agent_session_file_nested_deep_is_skipped(tmp_path):
    from app.demo_agent.store import SessionStore

    (tmp_path / "abc.json").write_text('{"cwd": "/w", "updatedAt": "t", "history": ' + _deep(100_000) + "}")
    store = SessionStore(tmp_path)
    assert store.load("abc") is None
    assert store.list_infos() == []


def test_a_log_folder_that_is_a_file_logs_to_stderr_only(tmp_path, monkeypatch, capsys):
    import logging

    from app.main.core.app_log import configure_logging

    (tmp_path / "logs").write_text("not a folder")
    monkeypatch.setenv("CLAWQT_LOG_DIR", str(tmp_path / "logs"))
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    try:
        configure_logging()
        logging.getLogger("clawqt").warning("still heard")
    finally:
        for handler in [h for h in root.handlers if h not in before]:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(level)
    err = capsys.readouterr().err
    assert f"cannot write the log file {tmp_path / 'logs' / 'clawqt.log'}" in err and "still heard" in err


def _queued(text: str, *files: str) -> dict:
    return {
        "id": f"q-{text}",
        "text": text,
        "files": [{"path": f, "name": Path(f).name, "mime": "text/plain"} for f in files],
    }


def test_queued_messages_are_kept_in_order_across_a_restart_and_an_empty_queue_is_forgotten(tmp_path):
    stores = LocalStores(tmp_path)
    stores.queues.set("s1", [_queued("first", "/w/a.txt"), _queued("second")])
    returned = stores.queues.get("s1")
    returned[0]["text"] = "changed by a caller"  # a copy: the store is not changed behind its back
    again = LocalStores(tmp_path)
    assert again.queues.get("s1") == [_queued("first", "/w/a.txt"), _queued("second")]
    again.queues.move("s1", "s2")
    again.queues.set("s2", [])
    assert LocalStores(tmp_path).queues.items() == {} and again.queues.get("s1") == []


def test_a_malformed_queue_is_left_out_with_a_message_and_the_original_is_kept(tmp_path):
    raw = json.dumps(
        {
            "good": [_queued("kept")],
            "no-text": [{"id": "x", "files": []}],
            "bad-file": [{"id": "y", "text": "t", "files": [{"path": 3, "name": "n", "mime": "m"}]}],
            "not-a-list": "hello",
        }
    )
    (tmp_path / "queued-messages.json").write_text(raw)
    problems = LocalProblems()
    stores = LocalStores(tmp_path, problems)
    assert stores.queues.items() == {"good": [_queued("kept")]}
    [problem] = problems.reported()
    [aside] = _asides(tmp_path, "queued-messages.json")
    assert problem.text == (
        f"Your queued messages file {tmp_path / 'queued-messages.json'} has 3 entries that are not a list "
        f"of queued messages: they are left out; the original file is kept as {aside.name}."
    )
    assert aside.read_text() == raw
