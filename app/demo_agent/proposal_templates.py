"""Where the demo agent proposes terminal actions, as a prompt's hidden context said (the CLI's path and
the prompt's channel): carried by the turn (`turn.py`), filled in by `proposal_command.py`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.contract.proposals import canonical_invocation, compact_payload


@dataclass(frozen=True)
class ProposalTemplate:
    """Where to propose, as the prompt's hidden context said: the CLI's path and the prompt's channel."""

    executable: str
    channel: str

    def command(self, payload: dict[str, Any]) -> str:
        return canonical_invocation(self.executable, self.channel, compact_payload(payload))
