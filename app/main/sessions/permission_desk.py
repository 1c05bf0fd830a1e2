"""The agent's `session/request_permission`, held until the user answers: asked through the session
machine (a PermissionRequestEnvelope the chat shows), unless the proposals answer it silently (the
proposal CLI's own exec: allowed once when armed, else cancelled, never shown, and never a rule's to
answer). A request the user's rules decide is shown answered, saying by which rule; one they do not
decide waits, and a rule the user adds meanwhile may still answer it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from app.contract.envelopes import PermissionRequestEnvelope
from app.main.sessions.machine import SessionMachine
from app.main.sessions.steps import Step, Token

if TYPE_CHECKING:
    from app.main.rules.book import AgentRules, RuleDecision
    from app.main.sessions.extras import ProposalsExtras


class PermissionDesk:
    """One waiter per request asked of the user; `settle` hands each the option a step chose."""

    def __init__(
        self,
        machine: SessionMachine,
        apply: Callable[[Step], None],
        proposals: Callable[[], ProposalsExtras | None],
        tokens: Iterator[int],
        rules: Callable[[], AgentRules | None] = lambda: None,
    ) -> None:
        self._machine = machine
        self._apply = apply
        self._proposals = proposals  # set on the service after it was made (`make_host`)
        self._rules = rules  # the same
        self._tokens = tokens  # shared with the service's requests: the machine tells them apart by it
        self._waiters: dict[Token, asyncio.Future[str | None]] = {}

    async def ask(
        self, acp_session_id: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None:
        """The chosen option id, or None (cancelled, refused, or the agent went away)."""
        proposals = self._proposals()
        if proposals is not None:
            context = self._machine.context_of(acp_session_id)
            if context is not None:
                silent = proposals.on_permission(context.key, tool_call, options)
                if silent is not None:  # the proposal CLI: allowed once (armed) or cancelled, unseen
                    return silent or None
        token = next(self._tokens)
        params = {"sessionId": acp_session_id, "toolCall": tool_call, "options": options}
        step = self._machine.on_recv({"id": token, "method": "session/request_permission", "params": params})
        if step.refusal is not None:
            self._apply(step)
            return None
        waiter = self._waiters[token] = asyncio.get_running_loop().create_future()
        self._apply(step)
        request_id = next(e.request_id for e in step.envelopes if isinstance(e, PermissionRequestEnvelope))
        rules, context = self._rules(), self._machine.context_of(acp_session_id)
        if rules is not None and context is not None:
            decided = rules.check(
                request_id,
                context.key,
                context.cwd,
                tool_call,
                options,
                lambda d: self._by_rule(request_id, d),
            )
            if decided is not None:
                self._by_rule(request_id, decided)
        try:
            return await waiter
        except asyncio.CancelledError:  # the agent withdrew it, or its connection is closing
            withdrawn = Step()
            self._machine.permissions.withdraw(token, withdrawn)
            self._apply(withdrawn)  # its card ends, not left waiting for an answer nobody reads
            raise
        finally:
            self._waiters.pop(token, None)
            self._machine.permissions.forget(token)
            if rules is not None:
                rules.done(request_id)

    def _by_rule(self, request_id: str, decided: RuleDecision) -> bool:
        """The user's rule answers (its card says which); False when the request already ended."""
        rule = decided.rule
        step = self._machine.answer_permission(request_id, decided.option_id, (rule.id, rule.words()))
        self._apply(step)
        return bool(step.answers)

    def answer(self, request_id: str, option_id: str | None) -> bool:
        """The user's choice (None = cancel). False if unknown, already answered, or not an option."""
        step = self._machine.answer_permission(request_id, option_id)
        self._apply(step)
        return bool(step.answers)

    def settle(self, answers: Iterable[tuple[Token, str | None]]) -> None:
        """The answers a transition produced go to the requests waiting for them."""
        for token, option_id in answers:
            waiter = self._waiters.get(token)
            if waiter is not None and not waiter.done():
                waiter.set_result(option_id)
