"""What the command line asked of this run, as the window's and `clawqt smoke`'s starts read it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Launch:
    """What the command line asked of this run (every field optional: the config decides the rest)."""

    agent: str | None = None  # --agent: the command line of the agent to start with
    cwd: str | None = None  # --cwd: the folder new chats start in
    add_dirs: Sequence[str] = field(default_factory=tuple)  # --add-dir: folders added for this run
    record: Path | None = None  # --record: the trace file of the first agent's traffic
    init_timeout: float = 60.0  # how long the agent's `initialize` may take

    @classmethod
    def of(cls, args: Any) -> Launch:
        """What a parsed command line asked (the window's and `clawqt smoke`'s: an option a command
        does not take keeps its default)."""
        return cls(
            agent=getattr(args, "agent", None),
            cwd=getattr(args, "cwd", None),
            add_dirs=tuple(getattr(args, "add_dir", None) or ()),
            record=getattr(args, "record", None),
            init_timeout=getattr(args, "init_timeout", None) or cls.init_timeout,
        )
