"""A real swap race on the agent's fs confinement: while the agent's reads and writes
run through `AgentFiles` in a loop, a swapper keeps replacing a folder inside the workspace with a symlink
to a folder outside it (renames, as an agent's shell could) and back. No read may ever return the outside
file's content and no write or temp file may ever land outside, whatever the interleaving.

The swappers (tests/unit/files/folder_swaps.py) run as a thread of this process and as a separate process; the
folder's name is by turns the real folder, missing, and the symlink, so refusals in between are
expected."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.main.files.agent_files import AgentFileError, AgentFiles
from tests.unit.files.folder_swaps import SWAPPER_IDS, SWAPPERS, prepare

ITERATIONS = 3000  # per operation (reads, then writes): about 2.5 s per run here
TIME_BUDGET = 8.0  # seconds for both loops together, whatever the machine
INSIDE = "inside content\n"
OUTSIDE = "OUTSIDE SECRET\n"


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """(workspace, outside): `ws/sub/f.txt` inside, `outside/f.txt` with other content beside it."""
    workspace, outside = tmp_path / "ws", tmp_path / "outside"
    outside.mkdir()
    prepare(workspace, outside)
    (workspace / "sub" / "f.txt").write_text(INSIDE)
    (outside / "f.txt").write_text(OUTSIDE)
    return workspace, outside


def _open_fds() -> int:
    """How many descriptors this process has open (0 where /proc is not there to tell)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return 0


def _loop(operation: Callable[[int], None], deadline: float, crashes: list[str]) -> tuple[int, int]:
    """Run `operation(i)` ITERATIONS times (or until the deadline); (done, refused). An exception other
    than a refusal is a crash the agent would see as an internal error: noted in `crashes`."""
    refused = 0
    for i in range(ITERATIONS):
        if time.monotonic() > deadline:
            return i, refused
        try:
            operation(i)
        except AgentFileError:
            refused += 1
        except OSError as exc:
            crashes.append(repr(exc))
    return ITERATIONS, refused


@pytest.mark.parametrize("swapper_kind", SWAPPERS, ids=SWAPPER_IDS)
def test_a_folder_swapped_for_a_symlink_never_leaks_a_read_or_lands_a_write_outside(tree, swapper_kind):
    workspace, outside = tree
    files = AgentFiles()
    roots = [str(workspace)]
    reads: list[str] = []
    crashes: list[str] = []
    deadline = time.monotonic() + TIME_BUDGET

    def read(_: int) -> None:
        reads.append(files.read("s", roots, str(workspace / "sub" / "f.txt"), None, None))

    def write(i: int) -> None:  # by turns a new file and one whose name also exists outside
        name = "w.txt" if i % 2 else "f.txt"
        files.write("s", "t", roots, str(workspace / "sub" / name), f"write {i}\n")

    fds_before = _open_fds()
    with swapper_kind(workspace) as swapper:
        read_count, read_refusals = _loop(read, deadline, crashes)
        write_count, write_refusals = _loop(write, deadline, crashes)
    leaked = sum(1 for text in reads if text != INSIDE)
    landed = sorted(p.name for p in outside.iterdir() if p.name != "f.txt")
    report = (
        f"{leaked} of {read_count} reads leaked ({read_refusals} refused); "
        f"{len(landed)} files landed outside {landed[:3]}; "
        f"{write_count} writes ({write_refusals} refused), {swapper.swaps} swaps, "
        f"{len(crashes)} crashes {sorted(set(crashes))[:3]}"
    )
    print(report)
    assert leaked == 0 and landed == [], report
    assert (outside / "f.txt").read_text() == OUTSIDE, report
    assert crashes == [], report
    # the race really ran: swaps met requests (which loop they meet depends on the machine's load),
    # and requests of both kinds got through whole
    assert swapper.swaps > 100 and read_refusals + write_refusals > 0, report
    assert len(reads) > 50 and write_count - write_refusals > 50, report
    assert _open_fds() <= fds_before + 2, "descriptors leaked on the refusal paths"
    written = [p.name for p in (workspace / "sub").iterdir()]
    assert sorted(written) == ["f.txt", "w.txt"], written  # in the real folder, and no temp file left
