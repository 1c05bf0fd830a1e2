"""Which links a click may open outside the app, and which need the user's confirmation first.

Refused: anything but http(s) and mailto (file:, javascript:, custom schemes), http(s) without a host
or with credentials, control characters, a mail link that would attach files (`attach=`). Asked first,
showing the real target: a host that is not plain ASCII (a homograph: shown and opened in punycode,
with its Unicode form beside it), text direction controls anywhere (they make a link read as something
else: shown as visible marks), and any mail link (it opens the mail program with a message prepared).
Everything else opens at once."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit, urlunsplit

from app.contract.hidden_characters import BIDI_CONTROLS, visible
from app.contract.links import LinkDecision

MAX_LINK_CHARS = 8192
MAIL_ATTACHMENT_FIELDS = frozenset({"attach", "attachment", "attachments"})


def decide_link(url: str) -> LinkDecision:
    if not url or len(url) > MAX_LINK_CHARS or any(ord(c) < 32 or ord(c) == 127 for c in url):
        return _refuse(url, "invalid link")
    try:
        parts = urlsplit(url)
    except ValueError:
        return _refuse(url, "invalid link")
    scheme = parts.scheme.lower()
    if scheme == "mailto":
        return _mail(url, parts.query)
    if scheme not in ("http", "https"):
        return _refuse(url, f"links of type {scheme or 'relative'!r} are not opened")
    if not parts.hostname:
        return _refuse(url, "link without a host")
    if parts.username or parts.password:
        return _refuse(url, "links with credentials are not opened")
    host = parts.hostname
    ascii_host = _punycode(host)
    if ascii_host is None:
        return _refuse(url, "the link's host name is not valid")
    target = urlunsplit(parts._replace(netloc=_netloc(ascii_host, parts.port))) if ascii_host != host else url
    reasons = []
    if ascii_host != host:
        reasons.append(f"its address is written in other characters than it reads: {host} is {ascii_host}")
    if any(c in BIDI_CONTROLS for c in url):
        reasons.append("it contains characters that change the direction of the text")
    if reasons:
        return LinkDecision("confirm", target, visible(target), "; ".join(reasons) + ".")
    return LinkDecision("open", url, url)


def _mail(url: str, query: str) -> LinkDecision:
    fields = {name.lower() for name, _ in parse_qsl(query, keep_blank_values=True)}
    if fields & MAIL_ATTACHMENT_FIELDS:
        return _refuse(url, "a mail link that attaches files is not opened")
    return LinkDecision("confirm", url, visible(url), "it opens your mail program with a message prepared.")


def _refuse(url: str, reason: str) -> LinkDecision:
    return LinkDecision("refuse", url, visible(url[:200]), reason)


def _punycode(host: str) -> str | None:
    """The host as DNS sees it (IDNA), or None when it cannot be encoded."""
    if host.isascii():
        return host.lower()
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return None


def _netloc(host: str, port: int | None) -> str:
    return f"{host}:{port}" if port is not None else host


class LinkPolicy:
    """The link part of the host API (contract: LinkPolicy)."""

    def decide(self, url: str) -> LinkDecision:
        return decide_link(url)
