"""The main side of seed 003's bounded transcript exceptions, for `openclaw acp` only: after a live turn
ends and after a load, read the session's Gateway transcript (`gateway.py`), reduce it
(`transcript.py`) and emit one `TranscriptSupplementEnvelope`; when a session list arrives,
mark sessions whose transcript is heartbeat-only so the sidebar's heartbeat filter hides them.

Limits: a live turn reads `LIVE_RECORDS` records, immediately and once more after `RETRY_S` when the
first read had no media for it; while its turn is not in the transcript yet (a busy Gateway records it
late) or a read fails, again after `RETRY_S`, doubling, for at most `LIVE_WAIT_S`; a load reads
`LOAD_RECORDS`; a turn (live or loaded) that started image generations still running is read again
(`LOAD_RECORDS`) every `GENERATION_POLL_S`, slowing to `GENERATION_POLL_MAX_S`, for at most
`GENERATION_WAIT_S`, until they delivered (their files are then the turn's images: OpenClaw's ACP bridge
sends no update for a background completion; `MAX_FAILED_READS` failed reads in a row end that wait); a
session list checks at most `MAX_HEARTBEAT_CHECKS` sessions not checked before. Gateway outgoing-media
URLs are fetched here, with the token, at most `MAX_MEDIA_BYTES` each and `MAX_FETCHED` per run, into a
private folder removed at quit; the view gets the file's path, never the URL. A failure that lasts is "no
supplement".
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import os
import shutil
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from app.contract.envelopes import (
    Envelope,
    SessionPage,
    SessionSummary,
    TranscriptSupplementEnvelope,
    TranscriptTurn,
    transcript_match_text,
)
from app.contract.openclaw_prompts import prompt_record_text
from app.main.openclaw.endpoint import GatewayEndpoint, resolve_endpoint
from app.main.openclaw.gateway import GatewayReader
from app.main.openclaw.transcript import (
    HEARTBEAT_SENTINEL,
    is_heartbeat_transcript,
    is_outgoing_media,
    transcript_turns,
)

log = logging.getLogger(__name__)

RETRY_S = 1.5
LIVE_WAIT_S = 30.0
MAX_FAILED_READS = 5
LIVE_RECORDS = 60
LOAD_RECORDS = 400
HEARTBEAT_RECORDS = 200  # fewer back: the whole transcript, so its first user text is known
MAX_HEARTBEAT_CHECKS = 20
HEARTBEAT_BUDGET_S = 2.0  # what a session listing may wait for the heartbeat checks
MAX_MEDIA_BYTES = 16 * 1024 * 1024
MAX_FETCHED = 64
FETCH_TIMEOUT_S = 5.0
GENERATION_POLL_S = 2.0
GENERATION_POLL_MAX_S = 10.0
GENERATION_WAIT_S = 600.0


class _Refuse(urllib.request.HTTPRedirectHandler):
    """The token goes to the Gateway only: a redirect is an error, never followed."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_NO_REDIRECTS = urllib.request.build_opener(_Refuse)
_EXTENSIONS = {"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp"}


class MediaFetcher:
    """Gateway outgoing media, fetched with the token (a blocking read in a worker thread), bounded,
    cached by URL for the run."""

    def __init__(self, endpoint: GatewayEndpoint) -> None:
        self.endpoint = endpoint
        self._folder: str | None = None
        self._fetched: dict[str, str | None] = {}

    async def local_path(self, url: str) -> str | None:
        if url in self._fetched:
            return self._fetched[url]
        if len(self._fetched) >= MAX_FETCHED:
            return None
        path = await asyncio.to_thread(self._fetch, url)
        self._fetched[url] = path
        return path

    def _fetch(self, url: str) -> str | None:
        headers = {"Authorization": f"Bearer {self.endpoint.token}"} if self.endpoint.token else {}
        request = urllib.request.Request(self.endpoint.http_base + url, headers=headers)
        try:
            with _NO_REDIRECTS.open(request, timeout=FETCH_TIMEOUT_S) as answer:
                kind = (answer.headers.get("Content-Type") or "").split(";")[0].strip().lower()
                data = answer.read(MAX_MEDIA_BYTES + 1)
        except (OSError, ValueError, urllib.error.URLError) as exc:
            log.warning("OpenClaw outgoing media not fetched (%s): %s", url[:200], exc)
            return None
        if len(data) > MAX_MEDIA_BYTES:
            log.warning("OpenClaw outgoing media over %d bytes, not shown: %s", MAX_MEDIA_BYTES, url[:200])
            return None
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="clawqt-openclaw-media-")  # mode 0700
        name = hashlib.sha256(url.encode()).hexdigest()[:24] + _EXTENSIONS.get(kind, "")
        path = os.path.join(self._folder, name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        return path

    def close(self) -> None:
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None
        self._fetched.clear()


class OpenClawSupplements:
    """Owned by the chat service; every read runs as a tracked background task (`spawn`)."""

    def __init__(
        self,
        reader: GatewayReader,
        emit: Callable[[Envelope], None],
        spawn: Callable[[Any], None],
        fetcher: MediaFetcher | None = None,
    ) -> None:
        self.reader = reader
        self._emit = emit
        self._spawn = spawn
        self.fetcher = fetcher or MediaFetcher(reader.endpoint)
        self._heartbeat: dict[tuple[str, str | None], bool] = {}
        self.retry_s = RETRY_S
        self.live_wait_s = LIVE_WAIT_S
        self.poll_s = GENERATION_POLL_S

    @classmethod
    def for_command(
        cls,
        argv: tuple[str, ...],
        env: Mapping[str, str],
        emit: Callable[[Envelope], None],
        spawn: Callable[[Any], None],
    ) -> OpenClawSupplements | None:
        endpoint = resolve_endpoint(argv, env)
        return cls(GatewayReader(endpoint), emit, spawn) if endpoint is not None else None

    async def close(self) -> None:
        await self.reader.close()
        self.fetcher.close()

    # --- live turns --------------------------------------------------------------------------
    def after_turn(
        self, key: str, generation: int, client_message_id: str, blocks: list[dict[str, Any]]
    ) -> None:
        """The prompt of these ACP blocks settled: read its turn's media. The turn is found by the text
        OpenClaw keeps for the prompt (`prompt_record_text`: a prompt of attachments only is known by its
        resource links; one of images only has no text, and only the newest turn may be it)."""
        wanted = transcript_match_text(prompt_record_text(blocks))
        self._spawn(self._after_turn(key, generation, client_message_id, wanted))

    async def _after_turn(self, key: str, generation: int, client_message_id: str, wanted: str) -> None:
        deadline = time.monotonic() + self.live_wait_s
        pause, seen_without_media = self.retry_s, False
        while True:
            payload = await self.reader.call("sessions.get", {"key": key, "limit": LIVE_RECORDS})
            turns = transcript_turns(payload.get("messages")) if payload is not None else ()
            turn = _wanted_turn(turns, wanted)
            waited = turn is not None and bool(turn.waiting)
            if turn is not None and turn.waiting:
                turn = _wanted_turn(await self._until_generated(key, turn.waiting), wanted)
            if turn is not None and (turn.media or turn.images):
                resolved = await self._resolve(turn)
                if resolved.media or resolved.images:
                    self._emit(TranscriptSupplementEnvelope(key, generation, (resolved,), client_message_id))
                return
            if waited or (turn is not None and seen_without_media):
                return  # waited for its generations already, or read it twice: no media for it
            if turn is not None:
                seen_without_media, pause = True, self.retry_s  # its last records may land late
            if time.monotonic() + pause > deadline:
                return
            await asyncio.sleep(pause)
            pause *= 2

    # --- loads -------------------------------------------------------------------------------
    def after_load(self, key: str, generation: int) -> None:
        self._spawn(self._after_load(key, generation))

    async def _after_load(self, key: str, generation: int) -> None:
        payload = await self.reader.call("sessions.get", {"key": key, "limit": LOAD_RECORDS})
        if payload is None:
            return
        turns = transcript_turns(payload.get("messages"))
        self._load_supplement(key, generation, await self._resolved(turns))
        waiting = tuple(task for turn in turns for task in turn.waiting)
        if waiting:  # the supplement again once those generations delivered (the renderer adds only new)
            self._load_supplement(
                key, generation, await self._resolved(await self._until_generated(key, waiting))
            )

    def _load_supplement(self, key: str, generation: int, turns: tuple[TranscriptTurn, ...]) -> None:
        if any(t.media or t.images or t.duration_s is not None for t in turns):
            self._emit(TranscriptSupplementEnvelope(key, generation, turns))

    async def _resolved(self, turns: tuple[TranscriptTurn, ...]) -> tuple[TranscriptTurn, ...]:
        return tuple([await self._resolve(t) for t in turns])

    async def _until_generated(self, key: str, tasks: tuple[str, ...]) -> tuple[TranscriptTurn, ...]:
        """The transcript read again, less and less often, until none of `tasks` (background image
        generations) is still waiting, `GENERATION_WAIT_S` passed, or the Gateway stopped answering
        (`MAX_FAILED_READS` in a row: then no turns)."""
        deadline = time.monotonic() + GENERATION_WAIT_S
        pause, failed = self.poll_s, 0
        turns: tuple[TranscriptTurn, ...] = ()
        while time.monotonic() < deadline:
            await asyncio.sleep(pause)
            pause = min(pause * 1.5, GENERATION_POLL_MAX_S)
            payload = await self.reader.call("sessions.get", {"key": key, "limit": LOAD_RECORDS})
            if payload is None:
                failed += 1
                if failed >= MAX_FAILED_READS:
                    return ()
                continue  # one slow answer on a busy Gateway: the generation is still worth waiting for
            failed = 0
            turns = transcript_turns(payload.get("messages"))
            if not set(tasks) & {task for t in turns for task in t.waiting}:
                break
        return turns

    async def _resolve(self, turn: TranscriptTurn) -> TranscriptTurn:
        """Outgoing-media URLs become the fetched file's path; what cannot be fetched is left out."""
        if not any(is_outgoing_media(ref) for ref in (*turn.media, *turn.images)):
            return turn
        return dataclasses.replace(
            turn, media=await self._local(turn.media), images=await self._local(turn.images)
        )

    async def _local(self, refs: tuple[str, ...]) -> tuple[str, ...]:
        local = []
        for ref in refs:
            if not is_outgoing_media(ref):
                local.append(ref)
            elif (path := await self.fetcher.local_path(ref)) is not None:
                local.append(path)
        return tuple(dict.fromkeys(local))

    # --- heartbeat sessions ------------------------------------------------------------------
    async def mark_heartbeats(self, page: SessionPage) -> SessionPage:
        """The page with `_meta.preview` set to the heartbeat sentinel for each session whose whole
        transcript starts with a heartbeat poll (the sidebar's heartbeat filter then hides it). No check
        starts after HEARTBEAT_BUDGET_S, and none after a read failed: an unreachable or slow Gateway
        holds the listing at most one read's time limit."""
        deadline = time.monotonic() + HEARTBEAT_BUDGET_S
        checks = 0
        reachable = True
        sessions = []
        for summary in page.sessions:
            cache_key = (summary.session_key, summary.updated_at)
            if (
                cache_key not in self._heartbeat
                and reachable
                and checks < MAX_HEARTBEAT_CHECKS
                and time.monotonic() < deadline
            ):
                checks += 1
                verdict = await self._is_heartbeat(summary.session_key)  # the reader's own time limit
                if verdict is None:
                    reachable = False  # unknown: asked again at the next listing
                else:
                    self._heartbeat[cache_key] = verdict
            if self._heartbeat.get(cache_key):
                summary = _marked(summary)
            sessions.append(summary)
        return SessionPage(tuple(sessions), page.next_cursor)

    async def _is_heartbeat(self, key: str) -> bool | None:
        """Whether the session is heartbeat-only; None when the Gateway did not answer."""
        payload = await self.reader.call("sessions.get", {"key": key, "limit": HEARTBEAT_RECORDS})
        if payload is None:
            return None
        messages = payload.get("messages")
        if not isinstance(messages, list) or len(messages) >= HEARTBEAT_RECORDS:
            return False  # not the whole transcript: its first user text is not known
        return is_heartbeat_transcript(messages)


def _wanted_turn(turns: tuple[TranscriptTurn, ...], wanted: str) -> TranscriptTurn | None:
    """The newest turn kept as `wanted` (a prompt of images only has no text: only the newest may be it)."""
    candidates = reversed(turns) if wanted else turns[-1:]
    return next((t for t in candidates if t.user_text == wanted), None)


def _marked(summary: SessionSummary) -> SessionSummary:
    return dataclasses.replace(summary, meta={**summary.meta, "preview": HEARTBEAT_SENTINEL})


__all__ = ["MediaFetcher", "OpenClawSupplements"]
