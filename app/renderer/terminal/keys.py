"""A key the user pressed, as the bytes a terminal program reads (xterm's encoding): what the login
terminal of a sign-in and the panel's shells send to the PTY; and which keys a terminal screen keeps
for itself (scrolling, copy, paste). Pure: no Qt (keys come in as Qt's key and modifier numbers)."""

from __future__ import annotations

# Qt.Key values (stable across Qt versions), kept here so this stays importable without Qt
KEY_ESCAPE, KEY_TAB, KEY_BACKTAB, KEY_BACKSPACE, KEY_RETURN, KEY_ENTER = (
    0x01000000,
    0x01000001,
    0x01000002,
    0x01000003,
    0x01000004,
    0x01000005,
)
KEY_INSERT, KEY_DELETE, KEY_HOME, KEY_END = 0x01000006, 0x01000007, 0x01000010, 0x01000011
KEY_LEFT, KEY_UP, KEY_RIGHT, KEY_DOWN, KEY_PAGE_UP, KEY_PAGE_DOWN = (
    0x01000012,
    0x01000013,
    0x01000014,
    0x01000015,
    0x01000016,
    0x01000017,
)
KEY_C, KEY_V = 0x43, 0x56
SHIFT_MODIFIER, CONTROL_MODIFIER = 0x02000000, 0x04000000
ALT_MODIFIER = 0x08000000  # Alt+key sends ESC first (readline's Meta)
META_MODIFIER = 0x10000000
_CURSOR_KEYS = frozenset({"\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1b[H", "\x1b[F"})

_SEQUENCES = {
    KEY_ESCAPE: "\x1b",
    KEY_TAB: "\t",
    KEY_BACKTAB: "\x1b[Z",
    KEY_BACKSPACE: "\x7f",
    KEY_RETURN: "\r",
    KEY_ENTER: "\r",
    KEY_INSERT: "\x1b[2~",
    KEY_DELETE: "\x1b[3~",
    KEY_HOME: "\x1b[H",
    KEY_END: "\x1b[F",
    KEY_LEFT: "\x1b[D",
    KEY_UP: "\x1b[A",
    KEY_RIGHT: "\x1b[C",
    KEY_DOWN: "\x1b[B",
    KEY_PAGE_UP: "\x1b[5~",
    KEY_PAGE_DOWN: "\x1b[6~",
}


def key_text(key: int, text: str, modifiers: int) -> str:
    """What to send for a key press ("" for a key that sends nothing, like Shift alone)."""
    if key in _SEQUENCES:
        return _SEQUENCES[key]
    if modifiers & CONTROL_MODIFIER and ord("A") <= key <= ord("Z"):
        return chr(key - ord("A") + 1)  # Ctrl+C -> ETX, Ctrl+D -> EOT
    return text


def program_key_text(key: int, text: str, modifiers: int, app_cursor_keys: bool) -> str:
    """`key_text` as the running program asked for it: application cursor keys (`ESC O A`), and Alt
    as a leading ESC."""
    data = key_text(key, text, modifiers)
    if app_cursor_keys and data in _CURSOR_KEYS:
        return "\x1bO" + data[2:]
    if data and modifiers & ALT_MODIFIER and not data.startswith("\x1b"):
        return "\x1b" + data
    return data


def pasted_text(text: str, bracketed: bool) -> str:
    """Pasted text with newlines as the Enter key sends them; marked as a paste when the program asked
    for it (then a pasted line does not run by itself, and the paste cannot end its own mark)."""
    text = text.replace("\r\n", "\r").replace("\n", "\r")
    return "\x1b[200~" + text.replace("\x1b[201~", "") + "\x1b[201~" if bracketed else text


def scroll_key(key: int, rows: int) -> int | None:
    """Lines a key scrolls a card's screen back (negative: towards the end); None for other keys."""
    page = max(1, rows - 1)
    moves = {KEY_UP: 1, KEY_DOWN: -1, KEY_PAGE_UP: page, KEY_PAGE_DOWN: -page, KEY_HOME: 1 << 30}
    return moves.get(key, -(1 << 30) if key == KEY_END else None)


def live_key(key: int, modifiers: int, rows: int) -> tuple[str, int]:
    """What a live shell's screen does with a key itself: ("copy", 0) for Ctrl+Shift+C, ("paste", 0)
    for Ctrl+Shift+V and Shift+Insert, ("scroll", lines) for Shift+PageUp/PageDown; every other key
    is ("send", 0): the shell gets it (arrows, Tab, Esc, Ctrl+letters)."""
    ctrl, shift = bool(modifiers & CONTROL_MODIFIER), bool(modifiers & SHIFT_MODIFIER)
    plain_shift = shift and not ctrl and not modifiers & (ALT_MODIFIER | META_MODIFIER)
    page = max(1, rows - 1)
    if ctrl and shift and key == KEY_C:
        return "copy", 0
    if (ctrl and shift and key == KEY_V) or (plain_shift and key == KEY_INSERT):
        return "paste", 0
    if plain_shift and key in (KEY_PAGE_UP, KEY_PAGE_DOWN):
        return "scroll", page if key == KEY_PAGE_UP else -page
    return "send", 0


def takes_shortcut(key: int, text: str, modifiers: int) -> bool:
    """Whether a key the window has a shortcut for goes to a live shell instead (Esc, Ctrl+letters):
    everything the terminal would send except Ctrl+Shift combinations (the window's), and the
    screen's own Ctrl+Shift+C/V. The window's reserved combinations are the caller's to exclude."""
    if modifiers & CONTROL_MODIFIER and modifiers & SHIFT_MODIFIER:
        return key in (KEY_C, KEY_V)
    return bool(key_text(key, text, modifiers))


__all__ = ["key_text", "live_key", "pasted_text", "program_key_text", "scroll_key", "takes_shortcut"]
