"""Run a command while every core (or `--cores N`) is kept busy, to find the tests that fail only when
the machine is slow: `python -m tests.load -- .venv/bin/python -m pytest -n 2 --dist loadgroup`.

Each busy core is a separate process spinning in pure Python at normal priority, as other work on a
shared machine would; they are ended when the command ends (also on Ctrl+C), and the command's exit
status is this script's. Nothing else is changed on the machine."""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time


def _spin() -> None:
    """Burn one core until killed."""
    value = 0
    while True:
        value = (value * 31 + 7) % 1_000_003


def run_loaded(command: list[str], cores: int) -> int:
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(cores)]
    for spinner in spinners:
        spinner.start()
    started = time.monotonic()
    try:
        return subprocess.call(command)
    finally:
        for spinner in spinners:
            spinner.terminate()
        for spinner in spinners:
            spinner.join(timeout=5)
        print(f"[load] {cores} busy core(s) for {time.monotonic() - started:.0f} s", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1, help="busy cores (default: all)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run, after --")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    return run_loaded(command, max(1, args.cores))


if __name__ == "__main__":
    sys.exit(main())
