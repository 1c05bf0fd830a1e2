"""Installing an agent from the ACP registry in the real window: a registry served by a real loopback
HTTP server lists pi-acp (a real npm package); Install shows its progress and log, and the agent is
offered on New chat at once; the registry moving to a newer version offers Update; Roll back returns
to the version before; Pin is kept; Uninstall is asked first and removes it."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from typing import ClassVar

import pytest

from tests.conftest import scripted_agent_argv
from tests.ui.settings.test_settings_window import open_settings_at
from tests.ui.terminals.panel_support import mouse_click


class _Registry(http.server.BaseHTTPRequestHandler):
    version: ClassVar[str] = "0.0.24"

    def do_GET(self) -> None:
        entry = {
            "id": "pi-acp",
            "name": "Pi",
            "version": self.version,
            "description": "The pi coding agent's ACP adapter.",
            "distribution": {"npx": {"package": f"pi-acp@{self.version}"}},
        }
        body = json.dumps({"version": "1.0.0", "agents": [entry]}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def registry_url(monkeypatch) -> Iterator[str]:
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Registry)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/registry.json"
    monkeypatch.setenv("CLAWQT_REGISTRY_URL", url)
    _Registry.version = "0.0.24"
    yield url
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def silent_npm_registry(monkeypatch) -> Iterator[None]:
    """npm pointed at a loopback port that accepts and never answers: an install stays under way."""
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    monkeypatch.setenv("npm_config_registry", f"http://127.0.0.1:{listener.getsockname()[1]}/")
    yield
    listener.close()


def test_install_update_roll_back_pin_and_uninstall_from_settings(
    ui, registry_url, silent_npm_registry, monkeypatch
):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        registry = window.objects.agent_registry
        await open_settings_at(ui, window, "Agents")
        await ui.until(lambda: registry.source == "fetched" and not registry.fetching, 20)

        def row() -> dict:
            (only,) = registry.agents
            return only

        assert row()["state"] == "available"
        await mouse_click(ui, window, "registryInstall")  # npm waits on a registry that never answers
        await ui.until(lambda: row()["state"] == "installing", 10)
        progress = await ui.shown(window, "registryProgress")
        await ui.until(
            lambda: (
                progress.property("text").startswith("$ ") and "pi-acp@0.0.24" in progress.property("text")
            )
        )
        await ui.screenshots(window, "165-settings-registry-installing")
        await mouse_click(ui, window, "registryCancel")
        await ui.until(lambda: row()["state"] == "available")
        assert row()["said"] == "Installing Pi was cancelled; nothing was changed."

        monkeypatch.delenv("npm_config_registry")
        await mouse_click(ui, window, "registryInstall")
        await ui.until(lambda: row()["state"] == "installed", 120)
        assert row()["installedVersion"] == "0.0.24" and row()["said"] == "Installed: offered on New chat."
        check = await ui.shown(window, "registryCheck")
        assert check.property("text") == "Answers ACP; signs in with Launch pi in the terminal."
        choices = {c.agent_id: c for c in window.objects.host.sessions.choices()}
        assert choices["pi-acp"].source == "registry" and choices["pi-acp"].command.endswith("current/agent")

        _Registry.version = "0.0.34"
        await mouse_click(ui, window, "registryRefresh")
        await ui.until(lambda: not registry.fetching and row()["state"] == "update", 20)
        button = await ui.shown(window, "registryInstall")
        assert button.property("text") == "Update to 0.0.34"
        await mouse_click(ui, window, "registryLogToggle")
        await ui.shown(window, "registryLog")
        await ui.screenshots(window, "166-settings-registry-update")
        await mouse_click(ui, window, "registryInstall")
        await ui.until(lambda: row()["state"] == "installed" and row()["installedVersion"] == "0.0.34", 120)
        assert row()["previous"] == "0.0.24"

        await mouse_click(ui, window, "registryRollBack")
        await ui.until(lambda: row()["installedVersion"] == "0.0.24" and row()["state"] == "update")
        await mouse_click(ui, window, "registryPin")
        await ui.until(lambda: row()["pinned"] and row()["state"] == "installed")
        pill = await ui.shown(window, "registryInstalled")
        assert pill.property("label") == "Pinned at 0.0.24"

        await mouse_click(ui, window, "registryUninstall")
        await mouse_click(ui, window, "registryUninstallConfirm")
        await ui.until(lambda: row()["said"] == "Uninstalled: no longer offered from the next start.")
        assert row()["state"] == "available" and row()["installedVersion"] == ""

    ui.run(scenario(), timeout=300)
