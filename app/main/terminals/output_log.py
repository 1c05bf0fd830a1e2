"""One user terminal's output as an agent may see it: sequence-numbered chunks, each marked at arrival.

The user decides per terminal whether an agent may take part (`SharingMode`). Output that arrived while
the terminal was not shared stays withheld forever, also after sharing resumes: the mark is taken when
the bytes arrive, never recomputed from the current mode. A read says when it withheld something
(`excluded_output`) or when the output it asked for was already dropped by the byte cap (`history_gap`),
so the agent knows its picture is incomplete instead of guessing.

Pure: no Qt, no I/O, no clock. The terminal store feeds `append` from the PTY reader and the MCP tools
call `read`; both happen on the owner's thread.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass
from itertools import islice

# Retained output per terminal (data bytes); the oldest chunks go first when a new one would pass it.
MAX_LOG_BYTES = 1024 * 1024
# Retained chunks per terminal: one-byte echoes must not make a million small objects.
MAX_LOG_CHUNKS = 16384
# An arrival is split into pieces of at most this size, so the smallest read always fits a whole chunk.
CHUNK_BYTES = 256
# read_terminal's maxBytes range and default (the seed's contract); values outside are clamped.
MIN_READ_BYTES = 256
MAX_READ_BYTES = 65536
DEFAULT_READ_BYTES = 32768


class SharingMode(enum.Enum):
    """What an agent may do with a terminal; changed only by the user. Values are the wire names."""

    OFF = "off"
    STATUS_ONLY = "status-only"
    SHARED = "shared"


@dataclass(frozen=True, slots=True)
class OutputChunk:
    sequence: int
    data: bytes
    shared: bool  # sharing was SHARED when these bytes arrived: only then may an agent ever read them


@dataclass(frozen=True, slots=True)
class OutputRead:
    """One answer of `TerminalOutputLog.read`, in the seed's read_terminal terms.

    `next_sequence` is what to pass as `after_sequence` next time (the last sequence this read covered,
    returned or withheld). `truncated`: `max_bytes` left shared output out of this answer. `has_more`:
    reading again from `next_sequence` returns more right now. `history_gap`: chunks after
    `after_sequence` were dropped by the byte cap before anyone read them. `excluded_output`: a chunk in
    the covered range arrived while sharing was not on and was withheld.
    """

    output: bytes
    next_sequence: int
    agent_mode: SharingMode
    truncated: bool = False
    has_more: bool = False
    history_gap: bool = False
    excluded_output: bool = False

    @property
    def status_only(self) -> bool:
        return self.agent_mode is SharingMode.STATUS_ONLY


class TerminalOutputLog:
    """A bounded buffer of one terminal's output chunks, numbered from 1, with the sharing mark."""

    def __init__(
        self,
        sharing: SharingMode = SharingMode.OFF,
        max_bytes: int = MAX_LOG_BYTES,
        max_chunks: int = MAX_LOG_CHUNKS,
    ) -> None:
        self._sharing = sharing
        self._max_bytes = max_bytes
        self._max_chunks = max_chunks
        self._chunks: deque[OutputChunk] = deque()
        self._bytes = 0
        self._last_sequence = 0
        self.dropped_chunks = 0

    @property
    def sharing(self) -> SharingMode:
        return self._sharing

    @property
    def last_sequence(self) -> int:
        return self._last_sequence

    @property
    def retained_bytes(self) -> int:
        return self._bytes

    @property
    def oldest_sequence(self) -> int:
        """The oldest sequence still kept (`last_sequence + 1` when nothing is kept)."""
        return self._chunks[0].sequence if self._chunks else self._last_sequence + 1

    def user_set_sharing(self, mode: SharingMode) -> None:
        """The user's choice on the tab; only chunks arriving from now on carry the new mark."""
        self._sharing = mode

    def append(self, data: bytes) -> int:
        """Record output as it arrives from the PTY; returns the last sequence used."""
        shared = self._sharing is SharingMode.SHARED
        for start in range(0, len(data), CHUNK_BYTES):
            piece = bytes(data[start : start + CHUNK_BYTES])
            self._last_sequence += 1
            self._chunks.append(OutputChunk(self._last_sequence, piece, shared))
            self._bytes += len(piece)
        self._drop_oldest()
        return self._last_sequence

    def _drop_oldest(self) -> None:
        while self._chunks and (self._bytes > self._max_bytes or len(self._chunks) > self._max_chunks):
            self._bytes -= len(self._chunks.popleft().data)
            self.dropped_chunks += 1

    def read(self, after_sequence: int | None = None, max_bytes: int = DEFAULT_READ_BYTES) -> OutputRead:
        """Shared output after `after_sequence` (oldest first), or without it the newest shared output.

        Nothing is returned unless the terminal is shared right now: status-only answers with empty
        output (and `status_only`), off likewise (the tool layer refuses it before asking).
        """
        budget = min(max(max_bytes, MIN_READ_BYTES), MAX_READ_BYTES)
        if self._sharing is not SharingMode.SHARED:
            position = self._last_sequence if after_sequence is None else self._clamped(after_sequence)
            return OutputRead(b"", position, self._sharing)
        if after_sequence is None:
            return self._read_newest(budget)
        return self._read_forward(self._clamped(after_sequence), budget)

    def _clamped(self, after_sequence: int) -> int:
        return min(max(after_sequence, 0), self._last_sequence)

    def _read_forward(self, after: int, budget: int) -> OutputRead:
        history_gap = after + 1 < self.oldest_sequence
        start = max(after + 1 - self.oldest_sequence, 0)
        pieces: list[bytes] = []
        used = 0
        covered = after
        excluded = truncated = False
        for chunk in islice(self._chunks, start, None):
            if not chunk.shared:
                excluded = True
                covered = chunk.sequence
                continue
            if used + len(chunk.data) > budget:
                truncated = True
                break
            pieces.append(chunk.data)
            used += len(chunk.data)
            covered = chunk.sequence
        return OutputRead(
            b"".join(pieces),
            covered,
            self._sharing,
            truncated=truncated,
            has_more=truncated,
            history_gap=history_gap,
            excluded_output=excluded,
        )

    def _read_newest(self, budget: int) -> OutputRead:
        pieces: list[bytes] = []
        used = 0
        excluded = truncated = False
        for chunk in reversed(self._chunks):
            if not chunk.shared:
                excluded = True
                continue
            if used + len(chunk.data) > budget:
                truncated = True
                break
            pieces.append(chunk.data)
            used += len(chunk.data)
        pieces.reverse()
        return OutputRead(
            b"".join(pieces),
            self._last_sequence,
            self._sharing,
            truncated=truncated,
            excluded_output=excluded,
        )
