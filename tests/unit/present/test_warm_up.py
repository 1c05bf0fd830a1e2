"""The first reply's parsers are made ahead, off the GUI thread, once the window is up: the first reply
shown used to import markdown-it, linkify and `regex` while it streamed in (a stall of tens of ms)."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import REPO

PROBE = """
import sys
from app.renderer.present.warm_up import warm_up
from app.renderer.markdown.render import parser
before = [m in sys.modules for m in ("markdown_it", "linkify_it", "regex")]
warm_up()
after = [m in sys.modules for m in ("markdown_it", "linkify_it", "regex")]
print(before, after, parser.cache_info().currsize)
"""


def test_warming_up_imports_and_builds_what_the_first_reply_needs():
    """In a fresh interpreter: none of it is there before (the window's start does not pay for it),
    all of it after, both parsers kept."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, cwd=REPO, check=True
    )
    assert done.stdout.split("\n")[0] == "[False, False, False] [True, True, True] 2"
