"""The Toad figure of `memory` (bench/toad.py): a program's resident memory read on a real pseudo-terminal
once its output went quiet, the program ended after; a program that ends first is said, not read; with
Toad not installed, the figure says how to install it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bench import toad

SETTLES = "import sys, time; print('ready', flush=True); sys.stdin.read(); time.sleep(60)"


def test_a_program_on_a_pseudo_terminal_is_read_once_quiet_and_ended(tmp_path: Path):
    pid_file = tmp_path / "pid"
    program = f"import os; open({str(pid_file)!r}, 'w').write(str(os.getpid())); " + SETTLES
    mb = toad.idle_mb([sys.executable, "-c", program], dict(os.environ))
    assert 1 < mb < 500  # an interpreter's resident memory, read from /proc
    pid = int(pid_file.read_text())
    assert not Path(f"/proc/{pid}").exists()  # ended and reaped


def test_a_program_that_ends_before_it_settles_is_said():
    with pytest.raises(RuntimeError, match="ended before it settled"):
        toad.idle_mb([sys.executable, "-c", "print('bye')"], dict(os.environ))


def test_without_toad_installed_the_figure_says_how_to_install_it(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(toad, "NOTE", tmp_path / "installed.json")
    assert toad.measured() == (None, "Toad not installed (python -m bench.toad install)")
