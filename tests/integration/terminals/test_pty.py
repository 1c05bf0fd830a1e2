"""Client terminals on both PTY backends with real processes: the event-loop reader (POSIX) and the
threaded reader that Windows' pywinpty uses (run here around a POSIX PTY, so its logic is tested on
Linux): output, exit code, byte limit at a character boundary, kill with output kept, release, and no
process left after shutdown."""

from __future__ import annotations

import asyncio
import os
import select
import time

import pytest

from app.main.terminals.client import ClientTerminals, TerminalError
from app.main.terminals.pty import spawn_pty, spawn_threaded_posix
from tests.conftest import process_alive
from tests.waits import until

BACKENDS = pytest.mark.parametrize("spawn", [spawn_pty, spawn_threaded_posix], ids=["posix", "threaded"])


def _pid(terminals: ClientTerminals, terminal_id: str) -> int:
    return terminals._terminals[terminal_id].pty.pid


@BACKENDS
async def test_output_and_exit_code(spawn, tmp_path):
    seen: list[bytes] = []
    terminals = ClientTerminals(lambda key, tid, data, status: seen.append(data), spawn=spawn)
    tid = terminals.create("s", str(tmp_path), "bash", ["-c", "printf 'h\\xc3\\xa9llo\\n'; exit 3"])
    status = await asyncio.wait_for(terminals.wait_for_exit("s", tid), 10)
    assert status == {"exitCode": 3, "signal": None}
    output = terminals.output("s", tid)
    assert "h\u00e9llo" in output["output"] and output["truncated"] is False
    assert output["exitStatus"] == {"exitCode": 3, "signal": None}
    assert b"".join(seen).decode().strip() == "h\u00e9llo"


@BACKENDS
async def test_byte_limit_keeps_the_tail_at_a_character_boundary(spawn, tmp_path):
    terminals = ClientTerminals(spawn=spawn)
    script = "for i in $(seq 1 300); do printf '\\xc3\\xa9t\\xc3\\xa9-%d\\n' $i; done"
    tid = terminals.create("s", str(tmp_path), "bash", ["-c", script], output_byte_limit=101)
    await asyncio.wait_for(terminals.wait_for_exit("s", tid), 10)
    output = terminals.output("s", tid)
    assert output["truncated"] is True and "\ufffd" not in output["output"]
    assert len(output["output"].encode()) <= 101 and output["output"].rstrip().endswith("\u00e9t\u00e9-300")


@BACKENDS
async def test_kill_keeps_the_output_and_reports_the_signal(spawn, tmp_path):
    terminals = ClientTerminals(spawn=spawn)
    tid = terminals.create("s", str(tmp_path), "bash", ["-c", "echo started; sleep 30"])
    await until(lambda: "started" in terminals.output("s", tid)["output"])
    terminals.kill("s", tid)
    status = await asyncio.wait_for(terminals.wait_for_exit("s", tid), 10)
    assert status == {"exitCode": None, "signal": "SIGKILL"}
    assert "started" in terminals.output("s", tid)["output"]
    terminals.release("s", tid)
    with pytest.raises(TerminalError):
        terminals.output("s", tid)


@BACKENDS
async def test_shutdown_leaves_no_process(spawn, tmp_path):
    terminals = ClientTerminals(spawn=spawn)
    ids = [terminals.create("s", str(tmp_path), "sleep", ["30"]) for _ in range(3)]
    pids = [_pid(terminals, tid) for tid in ids]
    assert all(process_alive(pid) for pid in pids)
    terminals.shutdown()
    await until(lambda: not any(process_alive(pid) for pid in pids), 30)  # none outlives the app
    assert len(terminals) == 0


async def test_a_missing_pty_library_is_a_clear_error(tmp_path):
    def unavailable(*args):
        raise ImportError("No module named 'winpty'")

    terminals = ClientTerminals(spawn=unavailable)
    with pytest.raises(TerminalError, match="not available on this platform"):
        terminals.create("s", str(tmp_path), "bash", ["-c", "true"])


TRAPPED = ["bash", "-c", "trap '' HUP INT TERM; echo trapped; sleep 300"]  # says when its traps are set


def _shown(pty, text: bytes, timeout: float = 30.0) -> None:
    """Read the terminal until `text` appears (the shell got that far); a hang fails, not a slow start."""
    seen, deadline = b"", time.monotonic() + timeout
    while text not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"{text!r} never shown; seen {seen!r}"
        if select.select([pty.proc.fd], [], [], left)[0]:
            seen += os.read(pty.proc.fd, 4096)


def test_closing_a_running_terminal_never_raises_and_ends_it(tmp_path):
    """ptyprocess's own close() gives a killed child no time to die and then raises "Could not
    terminate the child": quitting with terminals open failed now and then."""
    ptys = [spawn_pty(TRAPPED, str(tmp_path), {}, (24, 80)) for _ in range(12)]
    for pty in ptys:
        _shown(pty, b"trapped")
    for pty in ptys:
        pty.kill()
        pty.close()  # must not raise
    deadline = time.monotonic() + 30  # a ceiling only a hang reaches
    while any(process_alive(pty.pid) for pty in ptys) and time.monotonic() < deadline:
        time.sleep(0.05)  # the poll's interval
    assert not any(process_alive(pty.pid) for pty in ptys)


def test_closing_without_a_kill_ends_a_child_that_ignores_hangups(tmp_path):
    pty = spawn_pty(TRAPPED, str(tmp_path), {}, (24, 80))
    _shown(pty, b"trapped")  # bash has set its traps before the close
    pty.close()
    deadline = time.monotonic() + 30  # a ceiling only a hang reaches
    while process_alive(pty.pid) and time.monotonic() < deadline:
        time.sleep(0.05)  # the poll's interval
    assert not process_alive(pty.pid)
