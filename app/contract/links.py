"""What the main side decides about a link the user clicked: open it, ask first (showing the real
target), or refuse it (with the reason)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

LinkAction = Literal["open", "confirm", "refuse"]


@dataclass(frozen=True)
class LinkDecision:
    action: LinkAction
    url: str  # what would be opened (hosts in punycode)
    shown: str  # the target as the user must see it: punycode, invisible controls made visible
    reason: str = ""  # why it asks, or why it refuses; one sentence


__all__ = ["LinkAction", "LinkDecision"]
