"""What the window imports before its first frame stays small: the Markdown parser and the code
highlighter load on the first render, the grapheme-aware `regex` module on the first question title
(an empty chat needs none of them)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO

HEAVY = ("markdown_it", "mdit_py_plugins", "pygments", "regex")


def test_the_window_modules_import_no_markdown_parser_highlighter_or_regex_module():
    probe = (
        "import sys, app.gui, app.renderer.qt.chat_objects, app.renderer.presenter;"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


def test_the_first_render_still_parses_and_highlights():
    from app.renderer.markdown.render import render_blocks

    blocks = render_blocks("# Title\n\n```python\nx = 1\n```\n")
    assert "Title" in blocks[0].html and "<span" in blocks[1].html
