"""The chat service with an agent served in the test's own process (tests/agents/in_process.py), beside
the subprocess tests: the same door the app starts a real child by, the same transport, JSON-RPC,
session machine and ACP SDK between the two pipe ends, and no interpreter to start."""

from __future__ import annotations

import asyncio

from tests.agents.in_process import demo_agent_launcher, in_process_command


async def test_a_whole_turn_with_a_permission_goes_through_the_in_process_demo_agent(make_service, tmp_path):
    service, envelopes = make_service(
        in_process_command().argv, launch=demo_agent_launcher(tmp_path / "store")
    )
    info = await service.start()
    assert info.name == "clawqt-demo" and service.connection.pid is None  # no child process
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "Show me everything"))
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request")))[0]
    option = next(o["optionId"] for o in request.options if o["kind"] == "allow_once")
    assert service.answer_permission(request.request_id, option)
    assert (await running).stop_reason == "end_turn"
    kinds = {e.notification["update"]["sessionUpdate"] for e in envelopes.updates()}
    assert {"agent_thought_chunk", "plan", "agent_message_chunk", "tool_call", "tool_call_update"} <= kinds


async def test_an_in_process_agent_that_ends_is_an_exit_and_the_next_start_launches_it_again(
    make_service, tmp_path
):
    launched: list[object] = []
    launch = demo_agent_launcher(tmp_path / "store")

    async def counting(*args: object) -> object:
        running = await launch(*args)
        launched.append(running)
        return running

    service, envelopes = make_service(in_process_command().argv, launch=counting)
    await service.start()
    first = launched[0]
    first.proc.stdin.close()  # the agent reads EOF and ends, as a child does
    await envelopes.wait_for(lambda log: [e for e in log.of_kind("agent_state") if e.state == "exited"])
    info = await service.start()
    assert info.name == "clawqt-demo" and len(launched) == 2 and launched[1] is not first
    assert (await service.new_session()).session_key
