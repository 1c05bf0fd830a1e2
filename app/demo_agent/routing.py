"""Which scripted turn answers a prompt: decided by the prompt's text alone, so tests can steer it."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from functools import partial

from app.demo_agent.commands import parse_command, run_command
from app.demo_agent.showcase import run_showcase
from app.demo_agent.slow import run_slow
from app.demo_agent.terminal_demos import run_client_terminal, run_deltas, run_v2
from app.demo_agent.turn import StopReason, Turn

TurnScript = Callable[[Turn], Awaitable[StopReason]]
_SLOW = re.compile(r"\bslow\b", re.IGNORECASE)
_DELTAS = re.compile(r"\bdeltas\b", re.IGNORECASE)
_V2 = re.compile(r"\bv2\b", re.IGNORECASE)
_MY_TERMINAL = re.compile(r"\bin my terminal\b", re.IGNORECASE)


def route(text: str) -> TurnScript:
    """1. "/name args" -> the slash command (unknown names get a hint);
    2. the word "slow" anywhere (any case) -> the slow stream;
    3. terminal variants: "deltas", "v2", "in my terminal" (see terminal_demos.py);
    4. anything else (also an empty or image-only prompt) -> the showcase turn."""
    command = parse_command(text)
    if command is not None:
        name, args = command
        return partial(run_command, name=name, args=args)
    if _SLOW.search(text):
        return run_slow
    if _DELTAS.search(text):
        return run_deltas
    if _V2.search(text):
        return run_v2
    if _MY_TERMINAL.search(text):
        return run_client_terminal
    return run_showcase
