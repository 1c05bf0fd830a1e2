"""Which links a click may open outside the app: http(s) and mailto only, with a host for http(s) and
no credentials. Everything else (file:, javascript:, custom schemes) is refused with a reason."""

from __future__ import annotations

from urllib.parse import urlsplit


def external_link_refusal(url: str) -> str | None:
    """None when `url` may be opened in the system browser, else why not."""
    if not url or len(url) > 8192 or any(ord(c) < 32 for c in url):
        return "invalid link"
    try:
        parts = urlsplit(url)
    except ValueError:
        return "invalid link"
    scheme = parts.scheme.lower()
    if scheme == "mailto":
        return None
    if scheme not in ("http", "https"):
        return f"links of type {scheme or 'relative'!r} are not opened"
    if not parts.hostname:
        return "link without a host"
    if parts.username or parts.password:
        return "links with credentials are not opened"
    return None


class LinkPolicy:
    """The link part of the host API (contract: LinkPolicy)."""

    def refusal(self, url: str) -> str | None:
        return external_link_refusal(url)
