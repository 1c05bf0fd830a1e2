"""An agent's link (ACP `elicitation/create`, url mode) checked before the user sees it: only a web
address (https, or http) with a host; the host shown is the one the browser will really reach (never a
user name put before it, `https://bank.com@evil.example`), and a host with letters outside plain ASCII is
shown in the ASCII form the browser resolves, with a warning: `аpple.com` spelled with a Cyrillic а is
a different site from `apple.com` and looks the same."""

from __future__ import annotations

from typing import NamedTuple
from urllib.parse import urlsplit, urlunsplit

from app.main.elicitation.form import FormRefused

MAX_URL_CHARS = 4_000
SCRIPTS = ("Latin", "Cyrillic", "Greek", "Han", "Arabic", "Hebrew", "Armenian")


class Link(NamedTuple):
    url: str  # with the host in the ASCII form the card shows
    host: str  # what the card says the link opens
    warning: str  # "" when the host is plain


def _scripts(label: str) -> set[str]:
    """The alphabets a host's letters come from (roughly: enough to tell a mix)."""
    import regex  # Unicode scripts; loaded for a link with letters beyond ASCII, not at start

    found: set[str] = set()
    for char in label:
        if regex.match(r"\p{L}", char):
            found.add(next((name for name in SCRIPTS if regex.match(rf"\p{{Script={name}}}", char)), "other"))
    return found


def read_link(url: object) -> Link:
    """The link as the card shows it; FormRefused (a sentence) when it is not one to offer."""
    if not isinstance(url, str) or not url.strip():
        raise FormRefused("The agent asked to open a link but sent no address.")
    if len(url) > MAX_URL_CHARS:
        raise FormRefused(f"The agent's link is longer than {MAX_URL_CHARS:,} characters.")
    try:
        parts = urlsplit(url.strip())
        hostname = parts.hostname or ""
        port = parts.port
    except ValueError:
        raise FormRefused("The agent's link is not a valid address.") from None
    if parts.scheme.lower() not in ("https", "http"):
        raise FormRefused(
            f"The agent asked to open a link that is not a web address ({parts.scheme or 'none'})."
        )
    if not hostname:
        raise FormRefused("The agent's link names no site.")
    try:
        shown = hostname.encode("idna").decode("ascii") if not hostname.isascii() else hostname
        letters = hostname if not hostname.isascii() else hostname.encode("ascii").decode("idna")
    except UnicodeError:
        raise FormRefused("The agent's link names a site that cannot exist.") from None
    warning = ""
    if not letters.isascii():
        scripts = set().union(*(_scripts(label) for label in letters.split(".")))
        mixed = any(len(_scripts(label)) > 1 for label in letters.split("."))
        warning = (
            f"The address is written “{letters}”, mixing alphabets ({', '.join(sorted(scripts))}): it may "
            "imitate another site's name."
            if mixed
            else f"The address is written “{letters}”, with letters beyond a–z: check it is the site "
            "you expect."
        )
    if parts.username is not None and not warning:  # `https://bank.com@evil.example` opens evil.example
        warning = f"The link puts “{parts.username[:80]}” before the site's name; it opens {shown}."
    netloc = shown + (f":{port}" if port is not None else "")  # what opens is what the card names
    if parts.username is not None:
        netloc = parts.netloc.rsplit("@", 1)[0] + "@" + netloc
    return Link(urlunsplit(parts._replace(netloc=netloc)), shown, warning)
