"""`python -m bench [NAME ...] [--rounds N] [--save] [--quick] [--hang-after S]`: run benchmarks, print
one line each and write the details to a results file outside the tracked tree (.cache/bench/results.json,
or CLAWQT_BENCH_RESULTS); `--save` writes the committed bench/results.json instead, the figures a change
means to record; `--quick` runs each on small inputs (its figures mean nothing: the suite's check);
`--hang-after` prints every thread's stack and exits when one benchmark runs longer than S seconds, so a
hang names where it waits instead of being killed silently."""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import json
import os
import platform
import sys
import tempfile
import time
import traceback
from pathlib import Path

BENCHMARKS = (
    "pipeline",
    "history_independence",
    "replay_load",
    "ui_stream_history",
    "ui_stream_paced",
    "memory",
    "ui_idle",
    "ui_startup",
    "ui_load",
    "ui_search",
    "terminal_stream",
    "hostile_render",
    "credential_streams",
    "mcp_read",
    "terminal_panel_stream",
    "keystroke_echo",
    "proposal_roundtrip",
    "frozen_startup",
    "loop_stalls",
    "trace_open",
    "ui_frames",
    "turn_snapshots",
    "search_index",
)
SAVED = Path(__file__).resolve().parent / "results.json"  # tracked: written only with --save
SCRATCH = Path(__file__).resolve().parents[1] / ".cache" / "bench" / "results.json"  # git-ignored


def results_path(save: bool) -> Path:
    """Where this run's figures go: the committed file only when asked; else the environment's choice
    or the scratch file, so a run never leaves a tracked file changed."""
    if save:
        return SAVED
    return Path(os.environ.get("CLAWQT_BENCH_RESULTS") or SCRATCH)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("names", nargs="*", help=f"benchmarks to run (default all): {', '.join(BENCHMARKS)}")
    parser.add_argument("--rounds", type=int, default=None, help="interleaved rounds per benchmark")
    parser.add_argument("--save", action="store_true", help=f"write the committed {SAVED.name} (bench/)")
    parser.add_argument("--quick", action="store_true", help="small inputs: checks that they run, no figures")
    parser.add_argument(
        "--hang-after", type=float, default=0, metavar="S", help="print the stacks, exit after S s in one"
    )
    args = parser.parse_args(argv)
    if args.quick:  # read by bench.common when the benchmarks are imported
        os.environ["CLAWQT_BENCH_QUICK"] = "1"
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
    with tempfile.TemporaryDirectory(prefix="clawqt-bench-") as home:
        isolate(Path(home))
        return _run(args)


def isolate(home: Path) -> None:
    """Every window a benchmark opens (and every child it starts) uses folders of its own: the user's
    drafts, window state and config are neither read nor written, and no run sees an earlier run's."""
    from bench.common import app_folders  # here: bench.common reads --quick when first imported

    os.environ.update(app_folders(home))


def _run(args: argparse.Namespace) -> int:
    failed = False
    results = {}
    for name in args.names or BENCHMARKS:
        if args.hang_after:
            print(f"{name} started", file=sys.stderr, flush=True)
            faulthandler.dump_traceback_later(args.hang_after, exit=True)
        module = importlib.import_module(f"bench.{name}")
        try:
            result = module.run(args.rounds) if args.rounds else module.run()
        except Exception:
            traceback.print_exc()
            print(f"{name} error")
            failed = True
            continue
        finally:
            faulthandler.cancel_dump_traceback_later()
        print(result.line(), flush=True)
        results[name] = {
            "ratio": round(result.ratio, 4),
            "goal": result.goal,
            "met": result.met,
            **result.details,
        }
    path = results_path(args.save)
    previous = json.loads(path.read_text()) if path.exists() else {}
    previous.update(results)
    previous["_run"] = {
        "at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(previous, indent=2) + "\n")
    print(f"results: {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
