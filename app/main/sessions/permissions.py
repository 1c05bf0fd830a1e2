"""Pending permission requests, by the token of the agent's request: which session (key and generation)
asked, which options it offered, and how each ended: answered by the user exactly once, or cancelled by
a rule of the session state machine (which decides when; this only keeps the books).

An agent may offer any number of options; the user is shown, and may answer with, at most
`MAX_OPTIONS` of them (`shown_options`): every option that rejects comes first among those kept (so
denying stays possible), then the others in the agent's order; the kept ones keep the agent's order.
Ten thousand options used to become ten thousand buttons that stayed in memory after the chat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from app.contract.acp_fields import dict_field, str_field
from app.contract.envelopes import PermissionRequestEnvelope, PermissionResolvedEnvelope
from app.main.sessions.permission_text import raw_request
from app.main.sessions.steps import Ignored, Step, Token

MAX_OPTIONS = 100


def shown_options(options: tuple[dict[str, Any], ...]) -> tuple[dict[str, Any], ...]:
    """The options offered to the user: all of them up to MAX_OPTIONS; past that the rejecting ones
    first, then the rest in order, cut at MAX_OPTIONS, in the agent's order."""
    if len(options) <= MAX_OPTIONS:
        return options
    rejects = [i for i, o in enumerate(options) if str(o.get("kind", "")).startswith("reject")]
    others = [i for i, o in enumerate(options) if not str(o.get("kind", "")).startswith("reject")]
    kept = sorted((rejects + others)[:MAX_OPTIONS])
    return tuple(options[i] for i in kept)


class PermissionRoute(NamedTuple):
    key: str
    generation: int
    request_id: str
    option_ids: frozenset[str]


class PermissionRoutes:
    def __init__(self) -> None:
        self._routes: dict[Token, PermissionRoute] = {}
        self._settled: set[Token] = set()  # cancelled by a rule: the client's wire answer is expected
        self.prefix = ""  # set per agent when several run: request ids stay unique in one window

    def __len__(self) -> int:
        return len(self._routes)

    def open(
        self,
        token: Token,
        key: str,
        generation: int,
        tool_call: dict[str, Any],
        options: tuple[dict[str, Any], ...],
    ) -> PermissionRequestEnvelope:
        shown = shown_options(options)  # the answer must be one the user could see
        option_ids = frozenset(str(o.get("optionId")) for o in shown if o.get("optionId"))
        route = self._routes[token] = PermissionRoute(
            key, generation, f"rpc-{self.prefix}{token}", option_ids
        )
        hidden = len(options) - len(shown)
        stated = raw_request(tool_call)
        return PermissionRequestEnvelope(
            key, generation, route.request_id, tool_call, shown, hidden, stated.text, stated.kind
        )

    def answer(
        self, request_id: str, option_id: str | None, step: Step, rule: tuple[str, str] = ("", "")
    ) -> None:
        """The user's choice (None = declined), or their rule's (`rule`: its id and words); nothing when
        the request is unknown, already answered, or the option is not one it offered."""
        token = next((t for t, route in self._routes.items() if route.request_id == request_id), None)
        route = self._routes.get(token) if token is not None else None
        if route is not None and (option_id is None or option_id in route.option_ids):
            reason = "rule" if rule[0] else "answered" if option_id is not None else "declined"
            self._resolve(token, option_id, reason, step, rule)

    def cancel_where(self, predicate: Callable[[PermissionRoute], bool], reason: str, step: Step) -> None:
        for token, route in list(self._routes.items()):
            if predicate(route):
                self._resolve(token, None, reason, step)
                self._settled.add(token)

    def answered_on_wire(self, token: Token, result: Any, step: Step) -> None:
        """The client's answer as a trace shows it (replay)."""
        if token in self._settled:
            self._settled.discard(token)
            return
        if token not in self._routes:
            step.ignored.append(Ignored("answer-unknown", f"an answer to unknown request {token!r}"))
            return
        outcome = dict_field(result, "outcome")
        option = str_field(outcome, "optionId") if outcome.get("outcome") == "selected" else None
        self._resolve(token, option, "answered", step)
        step.answers.clear()  # already on the wire

    def withdraw(self, token: Token, step: Step) -> None:
        """The agent cancelled its request (`$/cancel_request`) before the user answered."""
        if token in self._routes:
            self._resolve(token, None, "agent-withdrew", step)
            self._settled.add(token)

    def forget(self, token: Token) -> None:
        """The live client is done with a request (answered, or its handler went away)."""
        self._routes.pop(token, None)
        self._settled.discard(token)

    def _resolve(
        self, token: Token, option_id: str | None, reason: str, step: Step, rule: tuple[str, str] = ("", "")
    ) -> None:
        route = self._routes.pop(token)
        outcome: Literal["selected", "cancelled"] = "selected" if option_id is not None else "cancelled"
        step.answers.append((token, option_id))
        step.envelopes.append(
            PermissionResolvedEnvelope(
                route.key, route.generation, route.request_id, outcome, option_id, reason, *rule
            )
        )
