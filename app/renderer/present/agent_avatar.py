"""An agent's mark beside its turns when it sends no icon: its initials on a colour taken from its name,
so two agents side by side never look alike by accident and one agent always looks the same. Pure: the
colour is an index into Theme's avatar palette (which has a light and a dark form of each)."""

from __future__ import annotations

import hashlib
import re

PALETTE_SIZE = 8  # Theme.qml's avatarColours holds this many
_NOISE = {"acp", "agent", "the", "gateway", "cli", "server"}  # words that name no one


def initials(label: str) -> str:
    """Up to two capital letters: the first letters of the first two words that name the agent
    ("OpenClaw ACP Gateway" -> "O", "Claude Code" -> "CC", "codex-acp" -> "C"); "?" for no letters."""
    words = [w for w in re.split(r"[^0-9A-Za-z\u00c0-\uffff]+", label) if w]
    named = [w for w in words if w.lower() not in _NOISE] or words
    letters = "".join(word[0] for word in named[:2] if word[0].isalnum()).upper()
    return letters or "?"


def colour_index(label: str) -> int:
    """A stable index into the avatar palette for this name (the same in every run and on every
    machine: a digest, not Python's salted hash)."""
    normal = " ".join(label.lower().split())
    return hashlib.sha256(normal.encode()).digest()[0] % PALETTE_SIZE
