"""A check of one agent on a connection of its own (a second child process, nothing shared with the
window's chats): start and initialize, a new chat, and a short message only when the user allows it
(a message may cost the user's model tokens). Each step timed and said as it ends; a step that fails
ends the check; the chat is closed where the agent can and the child always stopped."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from app.contract.doctor import CheckStep
from app.contract.errors import HostError, SignInRequired

T = TypeVar("T")

STEP_TIMEOUT_S = 60.0  # a step the agent does not finish by then failed
MESSAGE = "This is ClawQt checking that you answer. Reply with the single word: ok"
REPLY_CHARS = 120  # of the agent's answer said in the step


class Check:
    def __init__(self, service: Any, cwd: str, progress: Callable[[CheckStep], None]) -> None:
        self._service = service
        self._cwd = cwd
        self._progress = progress
        self.steps: list[CheckStep] = []
        self.info: Any = None  # what the agent answered to initialize (kept: stopping it forgets it)

    async def run(self, send_message: bool) -> list[CheckStep]:
        service = self._service
        try:
            info = self.info = await self._step("Start and initialize", service.start(), _started)
            if info is None:
                return self.steps
            result = await self._step("A new chat", service.new_session(self._cwd), _opened)
            if result is None or not send_message:
                return self.steps
            turn = _Turn(service, result.session_key)
            stop = service.subscribe(turn.on_envelope)
            try:
                prompt = service.prompt(result.session_key, MESSAGE)
                await self._step("A short message", prompt, turn.words)
            finally:
                stop()
            if info.supports("sessionCapabilities", "close"):
                await self._quietly(service.close_session(result.session_key))
            return self.steps
        finally:
            await self._quietly(service.shutdown())

    async def _step(self, name: str, work: Awaitable[T], words: Callable[[T], str]) -> T | None:
        started = time.monotonic()
        try:
            value = await asyncio.wait_for(work, STEP_TIMEOUT_S)
        except SignInRequired as exc:
            self._said(
                CheckStep(name, False, time.monotonic() - started, f"It asks you to sign in first: {exc}")
            )
            return None
        except TimeoutError:
            self._said(CheckStep(name, False, STEP_TIMEOUT_S, f"No answer within {STEP_TIMEOUT_S:.0f} s."))
            return None
        except HostError as exc:
            self._said(CheckStep(name, False, time.monotonic() - started, str(exc)))
            return None
        self._said(CheckStep(name, True, time.monotonic() - started, words(value)))
        return value

    def _said(self, step: CheckStep) -> None:
        self.steps.append(step)
        self._progress(step)

    @staticmethod
    async def _quietly(work: Awaitable[Any]) -> None:
        """Cleaning up after the check: what fails there is not the agent's health."""
        with contextlib.suppress(HostError, TimeoutError):
            await asyncio.wait_for(work, STEP_TIMEOUT_S)


def _started(info: Any) -> str:
    version = f" {info.version}" if info.version else ""
    return f"{info.title or info.name}{version} answered initialize (ACP version {info.protocol_version})."


def _opened(result: Any) -> str:
    modes = (result.modes or {}).get("availableModes") if isinstance(result.modes, dict) else None
    parts = [f"It opened a chat ({result.session_key})"]
    if isinstance(modes, list) and modes:
        parts.append(f"{len(modes)} modes")
    if result.config_options:
        parts.append(f"{len(result.config_options)} options")
    return ", ".join(parts) + "."


class _Turn:
    """The short message's turn: what the agent says, and what it asks, refused: nobody is there to
    answer a check (a permission gets the agent's own refusal, a question is declined)."""

    def __init__(self, service: Any, key: str) -> None:
        self._service = service
        self._key = key
        self.said: list[str] = []
        self.refused: list[str] = []

    def on_envelope(self, envelope: Any) -> None:
        if getattr(envelope, "session_key", None) != self._key:
            return
        kind = getattr(envelope, "kind", "")
        if kind == "session_update":
            update = envelope.notification.get("update") if isinstance(envelope.notification, dict) else None
            if isinstance(update, dict) and update.get("sessionUpdate") == "agent_message_chunk":
                content = update.get("content")
                if isinstance(content, dict) and isinstance(content.get("text"), str):
                    self.said.append(content["text"])
        elif kind == "permission_request":
            refusal = next(
                (o.get("optionId") for o in envelope.options if o.get("kind") == "reject_once"), None
            )
            self._service.answer_permission(envelope.request_id, refusal)
            self.refused.append(str(envelope.tool_call.get("title") or "a tool"))
        elif kind == "question_asked" and not envelope.refused:
            self._service.answer_question(envelope.request_id, "decline", {})
            self.refused.append("a question")

    def words(self, answer: Any) -> str:
        text = " ".join("".join(self.said).split())
        if len(text) > REPLY_CHARS:
            text = text[: REPLY_CHARS - 1] + "\u2026"
        stop = getattr(answer, "stop_reason", "") or "end_turn"
        said = f"It answered ({stop}): {text}" if text else f"It ended its turn ({stop}) without a word."
        if self.refused:
            said += f" It asked for {', '.join(self.refused)}: refused, as nobody answers a check."
        return said
