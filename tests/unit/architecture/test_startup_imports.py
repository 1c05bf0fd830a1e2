"""What the window imports before its first frame stays small: the Markdown parser and the code
highlighter load on the first render, the grapheme-aware `regex` module on the first question title
(an empty chat needs none of them). The app's own start keeps the painted terminal and the garbage
collector out of the way of its first frame."""

from __future__ import annotations

import ast
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
from app import startup_collection

from app.renderer.qt import main_window

seen = []
window_open, release = main_window.Window._open, startup_collection.release

def first_frame():
    if not seen:
        painted = "app.renderer.qt.terminals.screen_item" in sys.modules
        seen.append(f"at the first frame: collecting={gc.isenabled()} painted terminal={painted}")
        kept = [p for p in linecache.cache if "/app/" in p and not p.endswith("feature_scan.py")]
        seen.append(f"app sources kept in linecache: {len(kept)} {kept[:3]}")
        main_side = sorted(m for m in sys.modules if m.startswith("app.main."))
        seen.append(f"main side at the first frame: {main_side}")
        chat = "app.renderer.qt.window" in sys.modules
        packages = {"acp", "mcp", "pydantic", "keyring", "sqlite3", "asyncio", "qasync"}
        third = sorted({m.split(".")[0] for m in sys.modules} & packages)
        seen.append(f"chat objects: {chat}; agent, MCP and event loop packages: {third}")

def opened(self, *args):
    window_open(self, *args)
    self.root.frameSwapped.connect(first_frame)

def released():
    release()
    seen.append(f"after: collecting={gc.isenabled()} frozen={gc.get_freeze_count()}")
    print(*seen, sep="\n", flush=True)  # the app ends its process itself, never returning here
    os.kill(os.getpid(), signal.SIGTERM)  # the app's own way out

main_window.Window._open, startup_collection.release = opened, released
sys.argv = ["clawqt", *sys.argv[1:]]
from app.cli import main
sys.exit(main())
"""


# What the window's first frame may have imported of the main side: the prelude (the config file, the
# window's placement: app/main/host/prelude.py) and what they use; no agent, chat store, rule or MCP module
PRELUDE_MODULES = {
    *("app.main.acp", "app.main.acp.recorder", "app.main.agents", "app.main.agents.command"),
    *("app.main.agents.profiles", "app.main.core", "app.main.core.app_log", "app.main.core.json_files"),
    *("app.main.core.paths", "app.main.core.problems", "app.main.files", "app.main.files.atomic"),
    *("app.main.files.confined_open", "app.main.files.regular_files", "app.main.host"),
    *("app.main.host.launch", "app.main.host.prelude", "app.main.stores", "app.main.stores.config"),
    *("app.main.stores.json_map", "app.main.stores.settings_file", "app.main.stores.view_state"),
}


def test_the_window_draws_its_first_frame_before_the_main_side_the_painted_terminal_and_any_collection(
    tmp_path,
):
    """The window's first frame (its start frame) is drawn from the prelude alone: no agent, chat store
    or MCP module, nor the chat objects, is imported before it. The painted terminal's type is made when
    a terminal is first shown, and the collector waits for the first frame, then leaves the objects of
    the start out of its walks (frozen). PySide's import hook left no module's source lines in memory
    (app/renderer/qt/common/feature_scan.py)."""
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
    main_side = next(line for line in done.stdout.splitlines() if line.startswith("main side at the first"))
    loaded = set(ast.literal_eval(main_side.split(": ", 1)[1]))
    assert loaded <= PRELUDE_MODULES, f"imported before the first frame: {sorted(loaded - PRELUDE_MODULES)}"
    assert "chat objects: False; agent, MCP and event loop packages: []\n" in done.stdout
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
