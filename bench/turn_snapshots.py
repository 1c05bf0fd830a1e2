"""`turn_snapshots`: what tracking a turn's changes costs (app/main/review/turn_changes.py): the
snapshot before a turn and the one after it, on a folder of 20,000 files and 500 MB of which the turn
changes 10, after the folder's first snapshot (which copies everything once, and is printed). Also on
this repository's own checkout (what its .gitignore leaves in), and the process's resident memory
over the turns (its slope per turn, over all and over the second half, is printed: flat is about 0).
Last, a folder of 200,000 files (twice the limit): the seconds until its snapshot says it is not
tracked. The ratio is the median turn's two snapshots / 300 ms; goal <= 1.0."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from pathlib import Path

from bench.common import REPO, Result, median, sized

FILES = sized(20_000, 400)
TOTAL_BYTES = sized(500 * 1024 * 1024, 4 * 1024 * 1024)
CHANGED = 10
MANY_FILES = sized(200_000, 2_000)  # a folder too big to track: how long until the scan says so
TURN_GOAL_S = 0.3
GOAL = 1.0


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024 / 1024


def _folder(root: Path) -> list[Path]:
    """FILES files in 200 folders, TOTAL_BYTES in all, each with its own first line."""
    size = TOTAL_BYTES // FILES
    body = (b"the quick brown fox jumps over the lazy dog\n" * (size // 44 + 1))[:size]
    made = []
    for index in range(FILES):
        folder = root / f"pkg{index % 200:03}"
        folder.mkdir(exist_ok=True)
        path = folder / f"module{index:05}.py"
        path.write_bytes(f"# file {index}\n".encode() + body)
        made.append(path)
    old = time.time_ns() - 3_600_000_000_000  # written an hour ago, as a checkout is
    for path in made:
        os.utime(path, ns=(old, old))
    return made


async def _turns(turns: int, root: str, store: Path, files: list[Path] | None) -> dict[str, list[float]]:
    from app.main.review.turn_changes import TurnChanges

    changes = TurnChanges(store)
    started = time.perf_counter()
    await changes.before_turn("chat", "turn-0", [root])
    first = time.perf_counter() - started
    await changes.after_turn("chat", "turn-0")
    took, rss, found = [], [], []
    for turn in range(1, turns + 1):
        started = time.perf_counter()
        await changes.before_turn("chat", f"turn-{turn}", [root])
        spent = time.perf_counter() - started
        for path in (files or [])[turn * CHANGED : (turn + 1) * CHANGED]:
            with open(path, "ab") as edited:
                edited.write(f"# changed in turn {turn}\n".encode())
        started = time.perf_counter()
        deltas = await changes.after_turn("chat", f"turn-{turn}")
        took.append(spent + time.perf_counter() - started)
        found.append(len(deltas))
        rss.append(_rss_mb())
    changes.close()
    return {"first": [first], "turns": took, "rss": rss, "found": found}


def _too_many(root: Path, store: Path) -> tuple[float, str]:
    """MANY_FILES empty files (over the limit in full size; the quick run lowers the limit to match):
    the seconds until the snapshot says the folder is not tracked, and what it says."""
    from app.main.review import folder_scan
    from app.main.review.blobs import BlobStore

    for index in range(MANY_FILES):
        folder = root / f"d{index % 500:03}"
        if index < 500:
            folder.mkdir()
        (folder / f"f{index}").touch()
    limit = folder_scan.MAX_FILES
    folder_scan.MAX_FILES = min(limit, MANY_FILES // 2)
    try:
        started = time.perf_counter()
        manifest = folder_scan.scan_folder(str(root), None, BlobStore(store))
        took = time.perf_counter() - started
    finally:
        folder_scan.MAX_FILES = limit
    assert manifest.notes.too_big and not manifest.entries, "a folder over the limit is not tracked"
    return took, manifest.notes.too_big


def _slope(values: list[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean_x, mean_y = (len(values) - 1) / 2, sum(values) / len(values)
    num = sum((x - mean_x) * (y - mean_y) for x, y in enumerate(values))
    return num / sum((x - mean_x) ** 2 for x in range(len(values)))


def run(rounds: int = 20) -> Result:
    turns = max(rounds, 3)
    work = Path(tempfile.mkdtemp(prefix="clawqt-bench-snapshots-"))
    try:
        root = work / "folder"
        root.mkdir()
        made = time.perf_counter()
        files = _folder(root)
        made = time.perf_counter() - made
        big = asyncio.run(_turns(turns, os.path.realpath(root), work / "store", files))
        assert big["found"] == [CHANGED] * turns, f"each turn changed {CHANGED} files: {big['found']}"
        own = asyncio.run(_turns(turns, str(REPO), work / "store-repo", None))
        kept = sum(p.stat().st_size for p in (work / "store" / "blobs").rglob("*") if p.is_file())
        many = work / "many"
        many.mkdir()
        too_many_s, too_many_said = _too_many(many, work / "store-many")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    turn = median(big["turns"])
    details = {
        "files": FILES,
        "mb": round(TOTAL_BYTES / 1024 / 1024),
        "turns": turns,
        "made_folder_s": round(made, 2),
        "first_snapshot_s": round(big["first"][0], 3),
        "turn_median_s": round(turn, 4),
        "turn_max_s": round(max(big["turns"]), 4),
        "rss_slope_mb_per_turn": round(_slope(big["rss"]), 3),
        # after the first half (SQLite's page cache and the allocator settle): flat means about 0
        "rss_slope_mb_per_turn_second_half": round(_slope(big["rss"][turns // 2 :]), 3),
        "kept_mb": round(kept / 1024 / 1024, 1),
        "repo_first_snapshot_s": round(own["first"][0], 3),
        "repo_turn_median_s": round(median(own["turns"]), 4),
        "too_many_files": MANY_FILES,
        "too_many_said_after_s": round(too_many_s, 3),
        "too_many_said": too_many_said,
    }
    return Result(
        "turn_snapshots",
        turn / TURN_GOAL_S,
        GOAL,
        details,
        extra_line=f"turn_snapshots ratio={turn / TURN_GOAL_S:.3f} goal={GOAL} (a turn's two snapshots "
        f"{turn * 1000:.0f} ms on {FILES:,} files / {TOTAL_BYTES // 1024 // 1024} MB, first "
        f"{big['first'][0]:.1f} s; this checkout {median(own['turns']) * 1000:.0f} ms; memory "
        f"{_slope(big['rss']):+.2f} MB a turn, {_slope(big['rss'][turns // 2 :]):+.2f} in the second half; "
        f"{MANY_FILES:,} files: not tracked, said after {too_many_s:.2f} s)",
    )
