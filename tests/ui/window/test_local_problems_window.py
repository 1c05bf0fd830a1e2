"""The real window tells the user what was wrong with their own files at startup (a corrupt config, a
corrupt drafts file) in the notice bar, and works on: the agent starts, a chat opens."""

from __future__ import annotations

import json
import os

from app.main.host.build import Launch, build_host
from tests.conftest import scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click


def _args(ui, agent: str | None) -> Launch:
    return Launch(agent=agent, cwd=str(ui.tmp_path))


def test_a_corrupt_drafts_file_is_reported_in_the_notice_bar(ui, isolated_dirs):
    data = isolated_dirs / "data"
    data.mkdir(parents=True)
    (data / "drafts.json").write_text('{"s1": "a draft",\n\n oops}')

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        notices = window.objects.notices
        [aside] = data.glob("drafts.json.corrupt-*")
        assert notices.notice == (
            f"Your drafts file {data / 'drafts.json'} is not valid JSON (line 3): starting without saved "
            f"drafts; the file is kept as {aside.name}."
        )
        assert ui.item(window, "noticeBar").property("visible")
        assert window.objects.session.sessionKey  # the app works on

    ui.run(scenario())


def test_startup_problems_from_the_config_and_the_stores_show_together(ui, isolated_dirs):
    data = isolated_dirs / "data"
    data.mkdir(parents=True)
    config = isolated_dirs / "config.json"
    config.write_text(json.dumps({"agent": 7, "additionalDirectories": "/srv"}))
    (data / "session-names.json").write_text(json.dumps({"s1": ["not", "text"]}))

    async def scenario():
        host, _recorder = build_host(_args(ui, " ".join(scripted_agent_argv())))
        window = await ui.open_host(host)
        notices = window.objects.notices
        first = (
            f'"agent" in your config file {config} is ignored: it must be {{"command": "CMD ARGS"}}, '
            "not a number."
        )
        assert notices.notice == f"{first} 2 more problems with your files: see Details."
        for expected in (first, '"additionalDirectories" in your config file', "session names file"):
            assert expected in notices.details
        toggle = ui.item(window, "noticeDetailsToggle")
        assert toggle.property("visible")
        toggle.setProperty("checked", True)
        await ui.frames(window, 2)
        assert ui.item(window, "noticeDetails").property("visible")
        await ui.screenshots(window, "startup-problems")
        opened: list[str] = []  # what went to the desktop (nothing opens on the test machine)
        notices.open_external = lambda url: opened.append(url.toLocalFile()) or True
        assert notices.configFile == str(config)  # the one file of the three the user edits by hand
        await mouse_click(ui, window, "openConfigButton")
        await ui.until(lambda: opened == [str(config)])

    ui.run(scenario())


def test_files_that_are_not_files_neither_hang_nor_crash_the_start(ui, isolated_dirs):
    """A FIFO in place of the config, the window state and the queue (an open that waits for a writer
    forever), links to /dev/zero in place of the chat views and the terminal tools' settings (an
    endless read): the window opens on the defaults, says which files it could not read, the chat
    works, and every one of them is left as it was."""
    data = isolated_dirs / "data"
    data.mkdir(parents=True)
    fifos = [isolated_dirs / "config.json", data / "window-state.json", data / "queued-messages.json"]
    links = [data / "chat-views.json", data / "terminal-access.json"]
    for fifo in fifos:
        os.mkfifo(fifo)
    for link in links:
        link.symlink_to("/dev/zero")

    async def scenario():
        host, _recorder = build_host(_args(ui, " ".join(scripted_agent_argv())))
        window = await ui.open_host(host)
        details = window.objects.notices.details
        for path in (*fifos, data / "chat-views.json"):
            assert f"{path} cannot be read (not a regular file)" in details, path.name
        assert window.objects.session.sessionKey  # the app works on
        await ui.screenshots(window, "73-files-that-are-not-files")

    ui.run(scenario())
    assert all(path.is_fifo() for path in fifos)
    assert links[0].is_symlink()
