"""What the sidebar's search field asks: words a chat's title must hold, and `agent:<name>` for the chats
of the agents whose id or name starts with it (the agent filter typed where the search is, instead of
a box of its own beside it). Pure: no Qt."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

PREFIX = "agent:"


@dataclass(frozen=True)
class SessionQuery:
    title: str  # what a title must hold, any case ("" for any)
    agent: str | None  # the `agent:` word, casefolded; None when the query names no agent

    def agents(self, names: Mapping[str, str]) -> set[str] | None:
        """The ids of the agents it names (by id or name, from its start, any case), None for every
        agent: `names` is id -> name."""
        if self.agent is None:
            return None
        return {
            agent_id
            for agent_id, name in names.items()
            if agent_id.casefold().startswith(self.agent) or name.casefold().startswith(self.agent)
        }


def parse_query(text: str) -> SessionQuery:
    """`agent:claude fix tests` -> the title words "fix tests" among Claude's chats; the last `agent:`
    word wins; an `agent:` with nothing after it names no agent yet (the user is typing it)."""
    agent: str | None = None
    words = []
    for word in text.split():
        if word.casefold().startswith(PREFIX):
            agent = word[len(PREFIX) :].casefold() or None
        else:
            words.append(word)
    return SessionQuery(" ".join(words).casefold(), agent)
