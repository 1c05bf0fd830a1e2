"""`python -m bench [NAME ...] [--rounds N]`: run benchmarks, print one line each, write results.json."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
import traceback
from pathlib import Path

BENCHMARKS = (
    "pipeline",
    "history_independence",
    "replay_load",
    "ui_stream_history",
    "ui_idle",
    "ui_startup",
    "ui_load",
    "terminal_stream",
    "hostile_render",
    "mcp_read",
    "terminal_panel_stream",
    "keystroke_echo",
    "proposal_roundtrip",
    "frozen_startup",
)
RESULTS = Path(os.environ.get("CLAWQT_BENCH_RESULTS") or Path(__file__).resolve().parent / "results.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("names", nargs="*", help=f"benchmarks to run (default all): {', '.join(BENCHMARKS)}")
    parser.add_argument("--rounds", type=int, default=None, help="interleaved rounds per benchmark")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
    failed = False
    results = {}
    for name in args.names or BENCHMARKS:
        module = importlib.import_module(f"bench.{name}")
        try:
            result = module.run(args.rounds) if args.rounds else module.run()
        except Exception:
            traceback.print_exc()
            print(f"{name} error")
            failed = True
            continue
        print(result.line(), flush=True)
        results[name] = {
            "ratio": round(result.ratio, 4),
            "goal": result.goal,
            "met": result.met,
            **result.details,
        }
    previous = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    previous.update(results)
    previous["_run"] = {
        "at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    RESULTS.write_text(json.dumps(previous, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
