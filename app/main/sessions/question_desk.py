"""The agent's `elicitation/create`, held until the user answers: shown through the session machine (a
QuestionAskedEnvelope the chat draws as a card), answered with what the user sent once every field
passed its check, or declined, or cancelled; `elicitation/complete` tells the card of a link the user
opened that the agent is done with it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from app.contract.elicitation import QuestionAction
from app.main.acp.json_rpc import RpcError
from app.main.sessions.machine import SessionMachine
from app.main.sessions.steps import Step, Token


class QuestionDesk:
    """One waiter per question; `settle` hands each the reply a step produced."""

    def __init__(self, machine: SessionMachine, apply: Callable[[Step], None], tokens: Iterator[int]) -> None:
        self._machine = machine
        self._apply = apply
        self._tokens = tokens  # shared with the service's requests: the machine tells them apart by it
        self._waiters: dict[Token, asyncio.Future[dict[str, Any] | str]] = {}

    async def ask(self, params: dict[str, Any]) -> dict[str, Any]:
        """The result for the agent: {"action": "accept", "content": {...}} or decline / cancel;
        RpcError (invalid params, the reason in words) for a question ClawQt cannot show."""
        token = next(self._tokens)
        waiter = self._waiters[token] = asyncio.get_running_loop().create_future()
        try:
            self._apply(
                self._machine.on_recv({"id": token, "method": "elicitation/create", "params": params})
            )
            reply = await waiter
        except asyncio.CancelledError:  # the agent withdrew it, or its connection is closing
            withdrawn = Step()
            self._machine.questions.withdraw(token, withdrawn)
            self._apply(withdrawn)
            raise
        finally:
            self._waiters.pop(token, None)
            self._machine.questions.forget(token)
        if isinstance(reply, str):
            raise RpcError(-32602, reply, {"details": reply})
        return reply

    def complete(self, params: dict[str, Any]) -> None:
        """`elicitation/complete`: the flow behind a link is done."""
        self._apply(self._machine.on_recv({"method": "elicitation/complete", "params": params}))

    def answer(self, request_id: str, action: QuestionAction, values: dict[str, Any]) -> dict[str, str]:
        """The user's answer; the problems by field name when it cannot go (nothing was sent)."""
        step, problems = self._machine.answer_question(request_id, action, values)
        self._apply(step)
        return problems

    def settle(self, replies: Iterable[tuple[Token, dict[str, Any] | str]]) -> None:
        for token, reply in replies:
            waiter = self._waiters.get(token)
            if waiter is not None and not waiter.done():
                waiter.set_result(reply)
