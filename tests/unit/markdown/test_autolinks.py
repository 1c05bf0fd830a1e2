"""Addresses in prose become the same links markdown-it's own linkify rule makes, without linkify-it."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from app.renderer.markdown.render import _make_parser, render_blocks

SAMPLES = [
    "see https://example.com/page/0 now",
    "https://example.com.",
    "(https://example.com/a_(b))",
    "(https://example.com/a)",
    "https://example.com/a?x=1&y=2, then",
    "visit http://localhost:8080/path!",
    "ftp://files.example.org/x.tar.gz;",
    "https://\u4f8b\u3048.jp/\u30d1\u30b9",  # a non-ASCII host and path
    "https://example.com/%E4%BD%A0",
    "https://xn--r8jz45g.jp/",
    "**https://example.com**",
    "*https://example.com*",
    "_https://example.com_",
    "[text](https://a.com) and https://b.com",
    "`https://code.com`",
    "http://",
    "http://.",
    "https://a",
    'mailto:x@y.com and https://q.org/"quoted"',
    "HTTPS://EXAMPLE.COM/UP",
    "xhttps://notascheme.com",
    "javascript://alert(1)",
    "https://example.com/~user/'s",
    "https://example.com/a]b] c",
    "<https://angle.com>",
    "https://example.com/path#frag.",
    "a https://ex.com/a,b,c d",
    "https://[::1]:8080/x",
    "svn+ssh://host/path",
    "https://example.com/q?a=<b>",
    "text https://ex.com/\u200bzw",
]


def _stock() -> MarkdownIt:
    md = MarkdownIt("gfm-like", {"html": False, "linkify": True, "typographer": False})
    md.linkify.set({"fuzzy_link": False})
    return md


@pytest.mark.parametrize("text", SAMPLES)
def test_an_address_becomes_the_link_markdown_it_would_make(text):
    assert _make_parser(True).render(text) == _stock().render(text)


def test_addresses_with_a_scheme_never_reach_linkify_it(monkeypatch):
    import linkify_it

    def refuse(*_args, **_kwargs):
        raise AssertionError("linkify-it was asked to match an address")

    monkeypatch.setattr(linkify_it.LinkifyIt, "match_at_start", refuse)
    text = " ".join(f"https://example.com/page/{n}" for n in range(200))
    [block] = render_blocks(text)
    assert block.html.count("<a ") == 200 and 'href="https://example.com/page/199"' in block.html
