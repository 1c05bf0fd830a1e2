"""The transport hands a big burst of agent messages over in order but in time-boxed slices (the
window gets turns in between), and a row's block model changes only the blocks that changed."""

from __future__ import annotations

import asyncio
import json
import time

from app.main.stdio_transport import StdioTransport


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
            await asyncio.sleep(0)

    reader.feed_data(lines)  # one read returns the whole burst (256 KB)
    reader.feed_eof()
    await asyncio.wait_for(ticker(), 30)
    assert seen == list(range(3000))  # in order
    interleaved = {count for count in ticks if 0 < count < 3000}
    assert len(interleaved) >= 5, "the burst was handled in one go: the window could not paint"
    await transport.close()


def test_the_block_model_updates_only_what_changed(model_checks):
    from app.renderer.qt.block_model import BlockListModel

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
    assert names == {"kind", "html", "code", "lang"}
