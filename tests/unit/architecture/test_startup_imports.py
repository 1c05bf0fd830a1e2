"""What the window imports before its first frame stays small: the Markdown parser and the code
highlighter load on the first render, the grapheme-aware `regex` module on the first question title
(an empty chat needs none of them). The app's own start keeps the painted terminal and the garbage
collector out of the way of its first frame."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.paths import REPO

HEAVY = ("markdown_it", "mdit_py_plugins", "pygments", "regex", "pathspec")


def test_the_window_modules_import_no_markdown_parser_highlighter_or_regex_module():
    probe = (
        "import sys, app.gui, app.renderer.qt.window, app.renderer.present.presenter;"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


def test_the_first_render_still_parses_and_highlights():
    from app.renderer.markdown.render import render_blocks

    blocks = render_blocks("# Title\n\n```python\nx = 1\n```\n")
    assert "Title" in blocks[0].html and "<span" in blocks[1].html


FIRST_FRAME_PROBE = r"""
import gc, linecache, os, signal, sys
from app import gui, startup_collection

seen = []
window_init, release = gui.Window.__init__, startup_collection.release

def first_frame():
    if not seen:
        painted = "app.renderer.qt.terminals.screen_item" in sys.modules
        seen.append(f"at the first frame: collecting={gc.isenabled()} painted terminal={painted}")
        kept = [p for p in linecache.cache if "/app/" in p and not p.endswith("feature_scan.py")]
        seen.append(f"app sources kept in linecache: {len(kept)} {kept[:3]}")

def init(self, host):
    window_init(self, host)
    self.root.frameSwapped.connect(first_frame)

def released():
    release()
    seen.append(f"after: collecting={gc.isenabled()} frozen={gc.get_freeze_count()}")
    print(*seen, sep="\n", flush=True)  # the app ends its process itself, never returning here
    os.kill(os.getpid(), signal.SIGTERM)  # the app's own way out

gui.Window.__init__, startup_collection.release = init, released
sys.argv = ["clawqt", *sys.argv[1:]]
from app.cli import main
sys.exit(main())
"""


def test_the_window_draws_its_first_frame_before_the_painted_terminal_and_any_collection(tmp_path):
    """The painted terminal's type is made when a terminal is first shown, and the collector waits for
    the first frame, then leaves the objects of the start out of its walks (frozen). PySide's import
    hook left no module's source lines in memory (app/renderer/qt/common/feature_scan.py)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME_PROBE, "--cwd", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "at the first frame: collecting=False painted terminal=False\n" in done.stdout
    assert "app sources kept in linecache: 0 []\n" in done.stdout
    after = next(line for line in done.stdout.splitlines() if line.startswith("after"))
    assert after.startswith("after: collecting=True frozen=")
    assert int(after.rsplit("=", 1)[1]) > 10_000  # the start's modules, classes and wrappers


AGENT_PROBE = r"""
import asyncio, sys, tempfile
from pathlib import Path
from app.main.agents.command import AgentCommand
from app.main.sessions.service import ChatService

async def main():
    folder = Path(tempfile.mkdtemp())
    argv = tuple(sys.argv[1:])
    service = ChatService(AgentCommand(argv, "flag", "probe"), cwd=str(folder), log_path=folder / "err.log")
    opened = await service.new_session()
    result = await service.prompt(opened.session_key, "fs-read notes.txt")
    await service.shutdown()
    heavy = sorted({name.split(".")[0] for name in sys.modules} & {"acp", "pydantic", "pydantic_core"})
    print(result.stop_reason, heavy)

asyncio.run(main())
"""


def test_talking_to_an_agent_loads_neither_the_acp_sdk_nor_pydantic():
    """ClawQt's own JSON-RPC layer talks to the agent (a session, a turn, a file request served): the
    SDK's pydantic schema (about half a second and 24 MB) is never imported by the client."""
    from tests.conftest import scripted_agent_argv

    done = subprocess.run(
        [sys.executable, "-c", AGENT_PROBE, *scripted_agent_argv()],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "end_turn []"
