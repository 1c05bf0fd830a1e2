"""Addresses with a scheme (`https://…`, `http://…`, `ftp://…`) become links as markdown-it's inline
`linkify` rule makes them, at a fraction of its cost.

Why: the stock rule hands every candidate to linkify-it (a battery of regular expressions) and then
normalises the address and its text through mdurl (parse, encode, punycode) twice. A reply made of
links spent three quarters of its render there, and a finished block is rendered while the window
waits. Here an ASCII address is found, trimmed and escaped with one regular expression and a few
string operations; anything unusual (a non-ASCII host, percent escapes, punycode) still goes through
markdown-it's own normalisation so the link is the same as before.

The end of an address follows GitHub's extended autolinks: trailing `?!.,:;*_~'"` are punctuation
of the sentence, and a closing bracket without its opening one inside the address is not part of it.
Addresses without a scheme ("README.md") are never linked (the parser turns fuzzy links off), and
`mailto:` is left to markdown-it's core linkify rule."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:
    from markdown_it.rules_inline import StateInline

SCHEMES = frozenset({"http", "https", "ftp"})
# the scheme just before "://" at the end of the pending text (RFC 3986: ALPHA *( ALPHA / DIGIT / "+-." ))
_SCHEME = re.compile(r"(?:^|[^a-z0-9.+-])([a-z][a-z0-9.+-]*)$", re.IGNORECASE)
# after "scheme:": "//", a host that starts with a letter or digit, then anything up to a space, a
# control character or a character that cannot be in an address written in prose
_ADDRESS = re.compile(r"//\w[^\s<>`\x00-\x1f\x7f]*")
_TRAILING = "?!.,:;*_~'\""
_BRACKETS = {")": "(", "]": "[", "}": "{"}
_SAFE = ";/?:@&=+$,-_.!~*'()#"  # characters an href keeps as written (markdown-it's, through mdurl)


def _trim(address: str) -> str:
    """`address` up to its first closing bracket without an opening one, without the sentence's
    punctuation after it."""
    if ")" in address or "]" in address or "}" in address:
        depth = dict.fromkeys(_BRACKETS.values(), 0)
        for i, char in enumerate(address):
            if char in depth:
                depth[char] += 1
            elif char in _BRACKETS:
                if not depth[_BRACKETS[char]]:
                    address = address[:i]
                    break
                depth[_BRACKETS[char]] -= 1
    while address:
        last = address[-1]
        if last == '"' and address.count('"') % 2 == 0:  # the end of a quote inside the address
            break
        if last not in _TRAILING:  # brackets left are matched: the scan above cut at the first that was not
            break
        address = address[:-1]
    return address


def _simple(url: str) -> bool:
    """An address whose href and text markdown-it would leave as written (no escapes, IDN or punycode)."""
    return url.isascii() and "%" not in url and "xn--" not in url.lower()


def scheme_links(state: StateInline, silent: bool) -> bool:
    """Inline rule at ":" of "scheme://": the address as a link (`linkify` markup, like the stock rule)."""
    if state.linkLevel > 0:
        return False
    pos = state.pos
    src = state.src
    if not src.startswith("://", pos):
        return False
    found = _SCHEME.search(state.pending)
    if found is None:
        return False
    scheme = found.group(1)
    if scheme.lower() not in SCHEMES:
        return False
    rest = _ADDRESS.match(src, pos + 1, state.posMax)
    if rest is None:
        return False
    address = _trim(rest.group())
    if len(address) < 3:  # "//" and at least one character of a host
        return False
    url = scheme + ":" + address
    if _simple(url):
        href, text = quote(url, safe=_SAFE), url
    else:
        href, text = state.md.normalizeLink(url), state.md.normalizeLinkText(url)
    if not state.md.validateLink(href):
        return False
    if not silent:
        state.pending = state.pending[: -len(scheme)]
        token = state.push("link_open", "a", 1)
        token.attrs = {"href": href}
        token.markup = "linkify"
        token.info = "auto"
        token = state.push("text", "", 0)
        token.content = text
        token = state.push("link_close", "a", -1)
        token.markup = "linkify"
        token.info = "auto"
    state.pos += 1 + len(address)
    return True
