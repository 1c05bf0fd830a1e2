"""The transport hands a big burst of agent messages over in order but in time-boxed slices (the
window gets turns in between), and a row's block model changes only the blocks that changed."""

from __future__ import annotations

import asyncio
import json
import time

from app.main.acp.stdio_transport import StdioTransport


class _NoStdin:
    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass


async def test_a_burst_of_updates_is_handled_in_order_in_slices_the_loop_can_interleave():
    reader = asyncio.StreamReader()
    seen: list[int] = []
    ticks: list[int] = []

    def slow_route(message: dict) -> bool:
        time.sleep(0.0002)  # routing work per update (reducer, row changes)
        seen.append(message["params"]["n"])
        return True

    transport = StdioTransport(_NoStdin(), reader, intercept=slow_route)  # type: ignore[arg-type]
    lines = b"".join(
        json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {"n": i}}).encode() + b"\n"
        for i in range(3000)
    )

    async def ticker() -> None:
        while len(seen) < 3000:
            ticks.append(len(seen))
            await asyncio.sleep(0)  # the poll's interval

    reader.feed_data(lines)  # one read returns the whole burst (256 KB)
    reader.feed_eof()
    await asyncio.wait_for(ticker(), 30)
    assert seen == list(range(3000))  # in order
    interleaved = {count for count in ticks if 0 < count < 3000}
    assert len(interleaved) >= 5, "the burst was handled in one go: the window could not paint"
    await transport.close()


async def test_a_line_of_many_megabytes_is_parsed_while_the_loop_runs_and_handled_in_order(monkeypatch):
    """Decoding, parsing and handling a 100 MB line took 300 ms in one go: it is parsed in a worker
    thread (the loop runs meanwhile), order is kept, and a large line of invalid UTF-8 is dropped alone."""
    import threading

    from app.main.acp import stdio_transport

    parsed_on: list[int] = []
    parse = stdio_transport._parsed

    def recording(line):
        if len(line) > 1_000_000:
            parsed_on.append(threading.get_ident())
        return parse(line)

    monkeypatch.setattr(stdio_transport, "_parsed", recording)
    reader = asyncio.StreamReader()
    seen: list[object] = []
    diagnostics: list[str] = []

    def route(message: dict) -> bool:
        seen.append(message["params"].get("n", len(message["params"].get("text", ""))))
        return True

    transport = StdioTransport(  # type: ignore[arg-type]
        _NoStdin(), reader, intercept=route, on_diagnostic=diagnostics.append
    )
    big = json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {"text": "x" * 3_000_000}})
    small = [json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {"n": i}}) for i in (1, 2)]
    invalid = b'{"jsonrpc": "2.0", "method": "x", "params": {"t": "' + b"\xff" * 2_000_000 + b'"}}'
    reader.feed_data(b"\n".join([small[0].encode(), big.encode(), invalid, small[1].encode()]) + b"\n")
    reader.feed_eof()
    turns_during_big = 0
    while len(seen) < 3:
        await asyncio.sleep(0)  # the poll's interval
        if seen == [1]:
            turns_during_big += 1
    assert seen == [1, 3_000_000, 2]
    assert parsed_on and threading.get_ident() not in parsed_on  # never on the loop's thread
    assert turns_during_big >= 1, "the loop did not run while the large line was parsed"
    assert any("unparsable" in d for d in diagnostics) and transport.dropped_lines == 1
    await transport.close()


async def test_a_long_line_of_too_much_structure_is_dropped_with_the_reason_and_the_next_is_taken():
    """Parsing megabytes of numbers holds the interpreter lock throughout, in any thread: past the
    limit the line is refused in words (a long string is not structure: see test_large_json.py)."""
    reader = asyncio.StreamReader()
    seen: list[object] = []
    diagnostics: list[str] = []
    transport = StdioTransport(  # type: ignore[arg-type]
        _NoStdin(),
        reader,
        intercept=lambda m: seen.append(m["params"]) or True,
        on_diagnostic=diagnostics.append,
    )
    numbers = {"jsonrpc": "2.0", "method": "session/update", "params": {"n": list(range(1_000_000))}}
    after = {"jsonrpc": "2.0", "method": "session/update", "params": {"n": "after"}}
    reader.feed_data(json.dumps(numbers).encode() + b"\n" + json.dumps(after).encode() + b"\n")
    reader.feed_eof()
    while not seen:
        await asyncio.sleep(0.01)  # the poll's interval
    assert seen == [{"n": "after"}] and transport.dropped_lines == 1
    [why] = diagnostics
    assert why.startswith(
        "dropped a line (7888955 bytes) that holds 7,888,955 bytes of JSON outside long strings "
        '(ClawQt parses at most 4,194,304 in one line): \'{"jsonrpc"'
    )
    await transport.close()


def test_the_block_model_updates_only_what_changed(model_checks):
    from app.renderer.qt.conversation.block_model import BlockListModel

    model = model_checks.watch(BlockListModel())
    first = {"kind": "html", "html": "<p>one</p>", "code": "", "lang": ""}
    live = {"kind": "html", "html": "<p>tw</p>", "code": "", "lang": ""}
    model.apply([first, live])
    changed, inserted, removed = [], [], []
    model.dataChanged.connect(lambda top, bottom, roles=(): changed.append(top.row()))
    model.rowsInserted.connect(lambda parent, start, end: inserted.append((start, end)))
    model.rowsRemoved.connect(lambda parent, start, end: removed.append((start, end)))
    model.apply([dict(first), {**live, "html": "<p>two</p>"}])  # equal first block, grown live one
    assert changed == [1] and not inserted
    model.apply([first, {**live, "html": "<p>two</p>"}, {**live, "html": "<p>three</p>"}])
    assert inserted == [(2, 2)]
    model.apply([first])
    assert removed == [(1, 2)] and model.rowCount() == 1
    names = {bytes(v.data()).decode() for v in model.roleNames().values()}
    assert names == {"kind", "html", "code", "lang", "tail"}
