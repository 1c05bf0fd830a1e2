"""The host part for the files a turn changed (`app/main/sessions/file_host.py` over `app/main/review/`):
each turn's change set, its review hunk by hunk, what changed outside the chat before a turn, and the
checkpoints a user message is (Restore to here). A Protocol of its own beside `host_api.py`, which makes
it `HostApi.files`."""

from __future__ import annotations

from typing import Protocol

from app.contract.envelopes import FileChangeView, ReviewFileView


class FileChangesHost(Protocol):
    """The files the agent changed in a turn (`app/main/sessions/file_host.py`); each change is announced by a
    FileChangesEnvelope."""

    def turns(self, session_key: str) -> list[str]:
        """The turns (prompt message ids) in which the agent changed files."""
        ...

    def changes(self, session_key: str, turn_id: str) -> list[FileChangeView]: ...

    def revert(self, session_key: str, turn_id: str, path: str) -> None:
        """FileChangeRefused (with the reason) when the file changed since the agent wrote it."""
        ...

    def review(self, session_key: str, turn_id: str) -> list[ReviewFileView]:
        """The turn's changed files hunk by hunk (review/review_desk.py)."""
        ...

    def undo_hunk(self, session_key: str, turn_id: str, path: str, hunk_id: str) -> None:
        """FileChangeRefused (with the reason) when the hunk's lines were edited since."""
        ...

    def keep_hunks(self, session_key: str, turn_id: str, path: str, hunk_ids: list[str]) -> None:
        """Remember these hunks as kept (every hunk of the file when `hunk_ids` is empty)."""
        ...

    def undo_turn(self, session_key: str, turn_id: str) -> list[str]:
        """Put back every file of the turn; the sentences of those refused."""
        ...

    def outside(self, session_key: str, turn_id: str) -> list[FileChangeView]:
        """What changed outside the chat between its previous turn and `turn_id` (shown as the user's)."""
        ...

    def outside_turns(self, session_key: str) -> list[str]:
        """The turns before which something outside the chat changed its files."""
        ...

    async def plan_restore(self, session_key: str, turn_id: str) -> list[FileChangeView]:
        """What Restore to the message `turn_id` would change (a view with a `note` and no path: what
        could not be tracked). FileChangeRefused when the message has no snapshot."""
        ...

    def restore(self, session_key: str, turn_id: str) -> list[str]:
        """Carry out the plan last made for that message; the sentences of the files left as they are."""
        ...
