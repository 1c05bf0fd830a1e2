"""`proposal_roundtrip`: what an agent waits for when it proposes terminal actions: the real
`clawqt propose-terminal-actions` process started until its validation line is read from its stdout,
vs a bare Python process (`python -c`, only socket and json) that connects to the same endpoint, sends
the same request and prints the one line it gets. Both talk to ClawQt's real `ProposalEndpoint` (its
own loop in a thread; a stand-in handler answers `not_armed` at once, so only one line comes), runs
interleaved. Ratio = median CLI / median bare; goal <= 2 (the CLI must not import Qt or the app)."""

from __future__ import annotations

import asyncio
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import Result, median, sized

GOAL = 2.0
RUNS = sized(30, 6)  # per contender and round
_BARE = (
    "import json, socket, sys\n"
    "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
    "s.connect(sys.argv[1])\n"
    "request = {'version': 1, 'channel': sys.argv[2], 'payload': sys.argv[3]}\n"
    "s.sendall(json.dumps(request).encode() + b'\\n')\n"
    "sys.stdout.write(s.makefile('rb').readline().decode())\n"
    "sys.stdout.flush()\n"
)


class _NotArmed:
    """Answers every request at once, as validation does for a channel nobody armed."""

    async def handle(self, request_line: bytes, peer_uid: int) -> tuple[dict[str, Any], None]:
        return {"phase": "validation", "status": "not_armed", "reason": "bench", "retryable": False}, None


class _EndpointThread:
    """The endpoint on its own asyncio loop, like the app's owner loop, so subprocesses can be timed
    from this thread with plain blocking calls."""

    def __init__(self) -> None:
        from app.main.proposals.endpoint import ProposalEndpoint

        self.loop = asyncio.new_event_loop()
        self.endpoint = ProposalEndpoint(secrets.token_hex(16), _NotArmed())
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> _EndpointThread:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.endpoint.start(), self.loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.endpoint.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def _first_line(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from starting `argv` until its first stdout line is read."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    watchdog = threading.Timer(60, proc.kill)  # a CLI that never answers ends the read
    watchdog.start()
    try:
        line = proc.stdout.readline()
        elapsed = time.perf_counter() - started
        proc.stdout.close()
        proc.wait(10)
    finally:
        watchdog.cancel()
    if b'"not_armed"' not in line:
        raise RuntimeError(f"{argv[0]} printed {line!r}, not the validation line")
    return elapsed


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98] if len(values) > 1 else values[0]


def run(rounds: int = 3) -> Result:
    console_script = Path(sys.executable).with_name("clawqt")
    cli = [str(console_script)] if console_script.exists() else [sys.executable, "-m", "app"]
    with tempfile.TemporaryDirectory(prefix="cq-", dir="/tmp") as runtime:
        env = {**os.environ, "XDG_RUNTIME_DIR": runtime}
        env.pop("PYTHONUNBUFFERED", None)
        os.environ["XDG_RUNTIME_DIR"], previous = runtime, os.environ.get("XDG_RUNTIME_DIR")
        try:
            with _EndpointThread() as served:
                path = served.endpoint.path
                channel = f"v1.{served.endpoint.instance}.{secrets.token_hex(16)}"
                payload = '{"schema_version":1,"origin":"terminal_agent","choices":[]}'
                cli_argv = [*cli, "propose-terminal-actions", "--channel", channel, "--payload-json", payload]
                bare_argv = [sys.executable, "-c", _BARE, path, channel, payload]
                _first_line(cli_argv, env)  # warm the page cache
                _first_line(bare_argv, env)
                ours: list[list[float]] = []
                bare: list[list[float]] = []
                for _ in range(rounds):
                    ours.append([])
                    bare.append([])
                    for _ in range(RUNS):
                        ours[-1].append(_first_line(cli_argv, env))
                        bare[-1].append(_first_line(bare_argv, env))
        finally:
            if previous is None:
                os.environ.pop("XDG_RUNTIME_DIR", None)
            else:
                os.environ["XDG_RUNTIME_DIR"] = previous
    cli_ms = median([median(r) for r in ours]) * 1000
    bare_ms = median([median(r) for r in bare]) * 1000
    cli_p99 = _p99([t for r in ours for t in r]) * 1000
    bare_p99 = _p99([t for r in bare for t in r]) * 1000
    ratio = cli_ms / bare_ms
    return Result(
        "proposal_roundtrip",
        ratio,
        GOAL,
        {
            "rounds": rounds,
            "runs_per_round": RUNS,
            "cli_median_ms": round(cli_ms, 2),
            "cli_p99_ms": round(cli_p99, 2),
            "bare_median_ms": round(bare_ms, 2),
            "bare_p99_ms": round(bare_p99, 2),
        },
        f"proposal_roundtrip ratio={ratio:.3f} goal={GOAL} (CLI start -> validation line {cli_ms:.1f} ms, "
        f"p99 {cli_p99:.1f} ms vs a bare python {bare_ms:.1f} ms, p99 {bare_p99:.1f} ms; medians of "
        f"{RUNS} runs x {rounds} rounds)",
    )


if __name__ == "__main__":
    print(run().line())
