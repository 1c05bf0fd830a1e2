"""Every validation status of the seed reached by a real request through the real CLI, endpoint and
service, and the executable the prompts offer."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile

import pytest

from app.contract.proposals import (
    canonical_invocation,
    compact_payload,
)
from app.main.proposals.service import ProposalService, clawqt_executable
from app.main.terminals.user import UserTerminals
from tests.integration.proposals.pipeline_support import (
    OPTIONS,
    Clock,
    cli_lines,
    exec_call,
    payload,
    run_cli,
)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX sockets and shells")


def test_the_executable_offered_is_an_absolute_path_that_exists():
    executable = clawqt_executable()
    assert executable is not None and os.path.isabs(executable) and os.access(executable, os.X_OK)
    assert sys.executable  # the console script sits beside this interpreter in a venv install


async def test_every_validation_status_is_reached_by_a_real_request_through_the_service(
    tmp_path, monkeypatch
):
    """The real CLI against the real endpoint and service: each refusal of the seed's order."""
    from app.contract.proposals import MAX_PAYLOAD_BYTES

    monkeypatch.setenv("PS1", "$ ")
    runtime = tempfile.mkdtemp(prefix="cq", dir="/tmp")
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
    executable = clawqt_executable()
    clock = Clock()
    live = {"turn": "t1"}
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    service = ProposalService(
        terminals, lambda envelope: None, lambda k, g, turn: turn == live["turn"], executable, clock
    )
    await service.start()
    terminals.open(None, 0, 80, 24)

    def issue(turn: str) -> str:
        live["turn"] = turn
        return service.prompt_context("chat-a", 1, turn).split("--channel ")[1].split(" ")[0]

    def status_of(lines: list[dict]) -> str:
        return lines[0]["status"]

    good = compact_payload(payload("true"))
    try:
        channel = issue("t1")
        instance = channel.split(".")[1]
        # a well-formed channel of this instance that was never issued
        never = f"v1.{instance}.{'0' * 32}"
        assert (
            status_of(await cli_lines(canonical_invocation(executable, never, good), 1)) == "unknown_channel"
        )
        # armed, then the 30 s lease passes
        command = canonical_invocation(executable, channel, good)
        assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
        clock.now += 31
        expired = await cli_lines(command, 1)
        assert status_of(expired) == "expired" and expired[0]["retryable"] is True
        # a permission armed it: only a permission arms it again
        assert status_of(await cli_lines(command, 1)) == "not_armed"
        # armed for one payload, another sent: digest mismatch (the same command line is what was allowed)
        assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
        other = canonical_invocation(executable, channel, compact_payload(payload("echo other")))
        assert status_of(await cli_lines(other, 1)) == "digest_mismatch"
        # a payload naming a pane: invalid schema (armed for exactly that payload)
        naming = payload("true")
        naming["choices"][0]["actions"][0]["pane"] = "left"
        pane_command = canonical_invocation(executable, channel, compact_payload(naming))
        assert service.on_permission("chat-a", exec_call(pane_command), OPTIONS) == "yes-once"
        assert status_of(await cli_lines(pane_command, 1)) == "invalid_schema"
        # accepted, then the same request again: already consumed
        channel = issue("t2")
        command = canonical_invocation(executable, channel, good)
        assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
        accepted_cli = await run_cli(command)
        first = json.loads(await asyncio.wait_for(accepted_cli.stdout.readline(), 15))
        assert first["status"] == "accepted"
        assert status_of(await cli_lines(command, 1)) == "already_consumed"
        service.cancel(first["proposal_id"])
        await accepted_cli.wait()
        # a channel superseded by a newer prompt
        old = issue("t3")
        issue("t4")
        assert status_of(await cli_lines(canonical_invocation(executable, old, good), 1)) == "superseded"
        # another instance's channel sent to this instance's socket (the CLI would look elsewhere)
        foreign = f"v1.{'a' * 32}.{'b' * 32}"
        reader, writer = await asyncio.open_unix_connection(service.endpoint.path)
        writer.write(json.dumps({"version": 1, "channel": foreign, "payload": good}).encode() + b"\n")
        await writer.drain()
        answer = json.loads(await asyncio.wait_for(reader.readline(), 15))
        writer.close()
        assert answer["status"] == "helper_mismatch"
        # an oversized payload (armed: still refused, retryable)
        big = payload("x" * 7000)
        big["choices"][0]["rationale"] = "y" * 1500
        big_text = compact_payload(big)
        assert len(big_text.encode()) > MAX_PAYLOAD_BYTES
        channel = issue("t5")
        big_command = canonical_invocation(executable, channel, big_text)
        service.on_permission("chat-a", exec_call(big_command), OPTIONS)
        oversized = await cli_lines(big_command, 1)
        assert status_of(oversized) == "invalid_schema" and oversized[0]["retryable"] is True
        # digest failures past the budget of 2: rejected
        channel = issue("t6")
        command = canonical_invocation(executable, channel, good)
        assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
        wrong = canonical_invocation(executable, channel, compact_payload(payload("echo nope")))
        statuses = [status_of(await cli_lines(wrong, 1)) for _ in range(3)]
        assert statuses == ["digest_mismatch", "digest_mismatch", "rejected"]
        # the prompt is no longer current when the permission comes: not armed, the channel is stale
        channel = issue("t7")
        live["turn"] = "a later turn"
        command = canonical_invocation(executable, channel, good)
        assert service.on_permission("chat-a", exec_call(command), OPTIONS) == ""
        assert status_of(await cli_lines(command, 1)) == "stale"
    finally:
        await service.stop()
        await terminals.shutdown()
        shutil.rmtree(runtime, ignore_errors=True)
