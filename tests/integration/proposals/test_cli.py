"""`clawqt propose-terminal-actions` as an agent runs it: the real console script in a subprocess
against the real endpoint on a real socket. Its two lines arrive through the pipe while it still runs
(the agent reads the validation before the user decides); exit 0 for every protocol-complete answer, 2
for usage errors, 1 for transport errors with one sentence on stderr; the retries never sleep after the
last try; it imports nothing of Qt or the app's heavy modules. The handler is a recording stand-in."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from app import proposal_cli
from app.contract import proposals
from app.contract.proposal_wire import MAX_FRAME_BYTES, channel_instance, runtime_dir, socket_path
from app.main.proposals.endpoint import ProposalEndpoint
from tests.integration.proposals.test_endpoint import Recording

CLAWQT = Path(sys.executable).with_name("clawqt")
CLI = [str(CLAWQT)] if CLAWQT.exists() else [sys.executable, "-m", "app"]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NOBODY = 65534
pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="Unix sockets only")


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch):
    """A short runtime folder (socket paths have a length limit), also for the CLIs the test starts."""
    folder = tempfile.mkdtemp(prefix="cq-", dir="/tmp")
    monkeypatch.setenv("XDG_RUNTIME_DIR", folder)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _channel(instance: str) -> str:
    return f"v1.{instance}.{secrets.token_hex(16)}"


def _agent_env() -> dict[str, str]:
    """The environment an agent gives the CLI: stdout a pipe, and no PYTHONUNBUFFERED to hide a
    missing flush."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


async def _start_cli(channel: str, payload: str, *prefix: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *prefix, *CLI, "propose-terminal-actions", "--channel", channel, "--payload-json", payload,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_agent_env(),
    )  # fmt: skip


async def _line(proc: asyncio.subprocess.Process) -> dict:
    return json.loads(await asyncio.wait_for(proc.stdout.readline(), 30))


async def _finish(proc: asyncio.subprocess.Process) -> tuple[int, str, str]:
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    return proc.returncode, out.decode(), err.decode()


def _frame_len(channel: str, payload: str) -> int:
    request = {"version": 1, "channel": channel, "payload": payload}
    return len(json.dumps(request, separators=(",", ":"), ensure_ascii=False).encode())


@pytest.mark.parametrize("decision", ["confirmed", "cancelled"])
async def test_accepted_then_the_users_decision_arrive_as_two_lines_read_while_the_cli_runs(
    runtime, decision
):
    handler = Recording()
    endpoint = ProposalEndpoint(secrets.token_hex(16), handler)
    await endpoint.start()
    channel = _channel(endpoint.instance)
    payload = '{"schema_version":1,"origin":"terminal_agent","choices":[]}'
    try:
        proc = await _start_cli(channel, payload)
        first = await _line(proc)
        assert first == {
            "phase": "validation",
            "status": "accepted",
            "proposal_id": "p-0",
            "retryable": False,
        }
        await asyncio.sleep(0.2)  # time for what must not happen to show: an absence has no event
        assert proc.returncode is None, "the CLI waits for the user's decision"
        request, uid = handler.requests[0]
        assert json.loads(request) == {"version": 1, "channel": channel, "payload": payload}
        assert uid == os.getuid()
        handler.finals[0].set_result({"phase": "final", "status": decision, "proposal_id": "p-0"})
        second = await _line(proc)
        code, rest, err = await _finish(proc)
    finally:
        await endpoint.stop()
    assert second == {"phase": "final", "status": decision, "proposal_id": "p-0"}
    assert (code, rest, err) == (0, "", "")


async def test_the_lines_are_printed_exactly_as_received(runtime):
    class Verbatim(Recording):
        async def handle(self, request_line, peer_uid):
            answer, final = await super().handle(request_line, peer_uid)
            return {**answer, "reason": "ünïcode 'quoted' \"x\""}, final

    handler = Verbatim()
    endpoint = ProposalEndpoint(secrets.token_hex(16), handler)
    await endpoint.start()
    try:
        proc = await _start_cli(_channel(endpoint.instance), "{}")
        first = await asyncio.wait_for(proc.stdout.readline(), 30)
        handler.finals[0].set_result({"phase": "final", "status": "confirmed", "proposal_id": "p-0", "z": 1})
        code, rest, _ = await _finish(proc)
    finally:
        await endpoint.stop()
    expected = json.dumps(
        {"phase": "validation", "status": "accepted", "proposal_id": "p-0", "retryable": False,
         "reason": "ünïcode 'quoted' \"x\""},
        separators=(",", ":"), ensure_ascii=False,
    )  # fmt: skip
    assert first.decode() == expected + "\n"
    assert rest == '{"phase":"final","status":"confirmed","proposal_id":"p-0","z":1}\n'
    assert code == 0


async def test_a_rejection_is_one_line_and_exit_0(runtime):
    handler = Recording("digest_mismatch")
    endpoint = ProposalEndpoint(secrets.token_hex(16), handler)
    await endpoint.start()
    try:
        code, out, err = await _finish(await _start_cli(_channel(endpoint.instance), "{}"))
    finally:
        await endpoint.stop()
    assert code == 0 and err == ""
    assert [json.loads(line)["status"] for line in out.splitlines()] == ["digest_mismatch"]


async def test_a_frame_of_exactly_the_limit_passes_and_one_byte_more_is_refused(runtime):
    handler = Recording("not_armed")
    endpoint = ProposalEndpoint(secrets.token_hex(16), handler)
    await endpoint.start()
    channel = _channel(endpoint.instance)
    payload = "x" * (MAX_FRAME_BYTES - _frame_len(channel, ""))
    assert _frame_len(channel, payload) == MAX_FRAME_BYTES
    try:
        at_limit = await _finish(await _start_cli(channel, payload))
        over = await _finish(await _start_cli(channel, payload + "x"))
    finally:
        await endpoint.stop()
    assert at_limit[0] == 0 and json.loads(at_limit[1])["status"] == "not_armed"
    assert len(handler.requests) == 1 and len(handler.requests[0][0]) == MAX_FRAME_BYTES
    assert over[0] == 0, over[2]
    refused = json.loads(over[1])
    assert (refused["status"], refused["retryable"]) == ("invalid_schema", True)
    assert str(MAX_FRAME_BYTES) in refused["reason"]
    assert len(handler.requests) == 1, "the oversized frame never reached the handler"


async def test_an_agent_that_closed_the_output_gets_exit_1_and_no_traceback(runtime):
    endpoint = ProposalEndpoint(secrets.token_hex(16), Recording("not_armed"))
    await endpoint.start()
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read the CLI's stdout
    try:
        proc = await asyncio.create_subprocess_exec(
            *CLI, "propose-terminal-actions", "--channel", _channel(endpoint.instance),
            "--payload-json", "{}", stdout=write_end, stderr=subprocess.PIPE, env=_agent_env(),
        )  # fmt: skip
        os.close(write_end)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        await endpoint.stop()
    assert proc.returncode == 1
    assert err.decode().strip().endswith("the output was closed before the answer could be printed")
    assert "Traceback" not in err.decode() and "Exception ignored" not in err.decode()


async def test_stop_answers_a_waiting_cli_unavailable(runtime):
    handler = Recording()
    endpoint = ProposalEndpoint(secrets.token_hex(16), handler)
    await endpoint.start()
    proc = await _start_cli(_channel(endpoint.instance), "{}")
    assert (await _line(proc))["status"] == "accepted"
    await endpoint.stop()
    second = await _line(proc)
    code, _, err = await _finish(proc)
    assert second == {"phase": "final", "status": "unavailable", "proposal_id": "p-0"}
    assert (code, err) == (0, "")


async def test_the_cli_reaches_an_endpoint_that_starts_late_on_a_retry(runtime):
    handler = Recording("unknown_channel")
    endpoint = ProposalEndpoint(secrets.token_hex(16), handler)
    proc = await _start_cli(_channel(endpoint.instance), "{}")
    # the CLI's first try comes at its start-up; the endpoint appears within its 0.75 s of retries
    # (the exact schedule is checked with a stand-in for sleep below)
    await asyncio.sleep(0.3)  # the endpoint appears after the CLI's first try
    await endpoint.start()
    try:
        code, out, err = await _finish(proc)
    finally:
        await endpoint.stop()
    assert (code, err) == (0, ""), err
    assert json.loads(out)["status"] == "unknown_channel"


def test_a_socket_that_appears_during_the_backoff_is_reached_on_the_next_try(runtime, monkeypatch):
    path = socket_path(secrets.token_hex(16))
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    slept: list[float] = []

    def appear_then_sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 2:  # two tries failed; the endpoint appears now
            listener.bind(path)
            listener.listen(1)

    monkeypatch.setattr(proposal_cli.time, "sleep", appear_then_sleep)
    with listener, proposal_cli.connect(path) as sock:
        assert sock.getpeername() == path
    assert slept == [0.05, 0.1], "the third try connected; no wait after it"


def test_the_retries_sleep_between_tries_and_never_after_the_last(runtime, monkeypatch):
    """Every wait of the CLI is one of these sleeps: four of them for five tries, none after the last."""
    slept: list[float] = []
    tries: list[str] = []
    real_connect = socket.socket.connect

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        tries.append("slept")

    def connect(sock: socket.socket, address: object) -> None:
        tries.append("tried")
        real_connect(sock, address)

    monkeypatch.setattr(proposal_cli.time, "sleep", sleep)
    monkeypatch.setattr(socket.socket, "connect", connect)
    missing = socket_path(secrets.token_hex(16))
    with pytest.raises(proposal_cli.TransportError, match=r"tried 5 times over 0\.75 s"):
        proposal_cli.connect(missing)
    assert slept == [0.05, 0.1, 0.2, 0.4], "four waits for five tries"
    assert tries == ["tried", "slept"] * 4 + ["tried"], "the last try is followed by no wait"


async def test_no_endpoint_at_all_is_a_transport_error_after_the_last_try(runtime):
    code, out, err = await _finish(await _start_cli(_channel(secrets.token_hex(16)), "{}"))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "no ClawQt is listening" in err and "tried 5 times" in err


async def test_a_connection_closed_before_the_first_line_is_a_transport_error(runtime):
    """A raw listener that accepts and closes: not a protocol answer, so exit 1 and stdout empty."""
    instance = secrets.token_hex(16)
    path = socket_path(instance)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    closed = asyncio.Event()

    async def close_at_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.close()
        closed.set()

    server = await asyncio.start_unix_server(close_at_once, path=path)
    try:
        code, out, err = await _finish(await _start_cli(_channel(instance), "{}"))
    finally:
        server.close()
        await server.wait_closed()
    assert closed.is_set()
    assert (code, out) == (1, "")
    assert "closed the connection without answering" in err


@pytest.mark.parametrize(
    "args, problem",
    [
        ([], "expected exactly"),
        (["--channel", "CH"], "expected exactly"),
        (["--channel", "CH", "--payload-json", "{}", "--extra"], "expected exactly"),
        (["--channel", "CH", "--channel", "CH"], "unexpected argument '--channel'"),
        (["--chanel", "CH", "--payload-json", "{}"], "unexpected argument '--chanel'"),
        (["--channel", "v1.nothex.x", "--payload-json", "{}"], "--channel must be v1.<32 hex>.<32 hex>"),
        (["--channel", "CH", "--payload-json", "\udcff"], "not valid UTF-8"),
    ],
)
def test_usage_errors_exit_2_with_the_usage_on_stderr(args, problem, capsys):
    channel = _channel(secrets.token_hex(16))
    args = [channel if a == "CH" else a for a in args]
    assert proposal_cli.main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert problem in err and proposal_cli.USAGE in err


def test_the_payload_may_come_first_and_both_options_are_read(runtime):
    channel = _channel(secrets.token_hex(16))
    assert proposal_cli.parse_args(["--payload-json", "{}", "--channel", channel]) == (channel, "{}")


@pytest.mark.skipif(not IS_ROOT or shutil.which("setpriv") is None, reason="needs root and setpriv")
async def test_the_cli_of_another_user_never_reaches_this_users_endpoint(runtime):
    """Given our channel, another user's CLI derives its own per-user folder: nothing of ours is found,
    and our handler never sees it (the endpoint's own uid check is in test_proposal_endpoint)."""
    os.chmod(runtime, 0o777)  # the other user may make their folder next to ours
    handler = Recording()
    endpoint = ProposalEndpoint(secrets.token_hex(16), handler)
    await endpoint.start()
    try:
        proc = await _start_cli(
            _channel(endpoint.instance), "{}",
            "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
        )  # fmt: skip
        code, out, err = await _finish(proc)
    finally:
        await endpoint.stop()
    assert (code, out) == (1, ""), err
    assert f"clawqt-{NOBODY}" in err and "no ClawQt is listening" in err
    assert handler.requests == []


def test_the_shared_wire_module_agrees_with_the_contract():
    assert MAX_FRAME_BYTES == proposals.MAX_FRAME_BYTES
    instance, nonce = secrets.token_hex(16), secrets.token_hex(16)
    for channel in (
        f"v1.{instance}.{nonce}",
        f"v2.{instance}.{nonce}",
        f"v1.{instance.upper()}.{nonce}",
        f"v1.{instance}.{nonce}.x",
        f"v1.{instance[:-1]}.{nonce}",
        f"v1.{instance}.{nonce}\n",
        f"v1.{instance}",
    ):
        assert (channel_instance(channel) is not None) == bool(proposals.CHANNEL_RE.fullmatch(channel))
    assert channel_instance(f"v1.{instance}.{nonce}") == instance
    env = {"XDG_RUNTIME_DIR": "/run/user/1000", "TMPDIR": "/var/tmp/x"}
    assert socket_path(instance, 1000, env) == f"/run/user/1000/clawqt-1000/p-{instance}.sock"
    assert runtime_dir({"XDG_RUNTIME_DIR": "relative", "TMPDIR": "/var/tmp/x/"}) == "/var/tmp/x"
    assert runtime_dir({}) == "/tmp"
    with pytest.raises(ValueError):
        socket_path("../../etc", 1000, env)


def test_the_cli_imports_no_qt_and_nothing_heavy(runtime, tmp_path):
    """The CLI's own process, after a complete run through `app.cli.main` (a usage error and a transport
    error: both paths end in the CLI): only the wire module and the CLI of the app are loaded, and none
    of Qt, asyncio, logging, typing or dataclasses; `python -X importtime` agrees."""
    probe = (
        "import sys\n"
        "from app.cli import main\n"
        "codes = [main(['propose-terminal-actions']), main(['propose-terminal-actions', '--channel', "
        f"'{_channel(secrets.token_hex(16))}', '--payload-json', '{{}}'])]\n"
        "print(codes, sorted(m for m in sys.modules if m.split('.')[0] in "
        "('app', 'PySide6', 'shiboken6', 'asyncio', 'logging', 'typing', 'dataclasses', 'argparse')))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    loaded = ["app", "app.cli", "app.contract", "app.contract.proposal_wire", "app.proposal_cli", "argparse"]
    assert result.stdout.strip() == f"[2, 1] {loaded}"
    timed = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "app", "propose-terminal-actions"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    imported = {
        line.split("|")[-1].strip() for line in timed.stderr.splitlines() if line.startswith("import time:")
    }
    assert "app.proposal_cli" in imported
    heavy = {
        m for m in imported if m.split(".")[0] in ("PySide6", "shiboken6", "asyncio", "logging", "typing")
    }
    assert heavy == set()


def test_the_cli_starts_about_as_fast_as_a_bare_python(runtime):
    """Timed as subprocesses, interleaved: the CLI's usage path vs `python -c` importing socket and
    json. Importing Qt alone would take several times the bare start."""
    bare_argv = [sys.executable, "-c", "import socket, json"]
    cli_argv = [*CLI, "propose-terminal-actions"]
    bare: list[float] = []
    cli: list[float] = []
    for _ in range(7):
        for argv, times in ((bare_argv, bare), (cli_argv, cli)):
            started = time.perf_counter()
            subprocess.run(argv, capture_output=True, timeout=60)
            times.append(time.perf_counter() - started)
    ratio = statistics.median(cli) / statistics.median(bare)
    assert ratio < 2.0, (
        f"CLI {statistics.median(cli) * 1000:.1f} ms vs bare {statistics.median(bare) * 1000:.1f} ms"
    )
