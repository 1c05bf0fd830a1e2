"""The ACP registry fetched from a real loopback HTTP server (app/main/agents/registry.py): fetched and
kept in the data folder; the server gone, the kept copy shown with an "Offline" note saying why; with
no copy kept, the one bundled with ClawQt; a server serving something that is not a registry changes
nothing kept."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator

import pytest

from app.main.agents.registry import CACHE_FILE, Registry


class _Handler(http.server.BaseHTTPRequestHandler):
    body = b""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[http.server.HTTPServer]:
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def _registry(*names: str) -> bytes:
    agents = [{"id": n, "name": n.title(), "version": "2.0.0", "description": f"{n} agent",
               "distribution": {"npx": {"package": f"@acme/{n}@2.0.0"}}} for n in names]  # fmt: skip
    return json.dumps({"version": "1.0.0", "agents": agents}).encode()


async def test_fetched_kept_and_shown_offline_with_why(server, tmp_path):
    url = f"http://127.0.0.1:{server.server_port}/registry.json"
    _Handler.body = _registry("alpha", "beta")
    registry = Registry(tmp_path, url)
    assert registry.catalog().source == "bundled"  # nothing fetched yet: the copy ClawQt ships

    fetched = await registry.refresh()
    assert fetched.source == "fetched" and [a.id for a in fetched.agents] == ["alpha", "beta"]
    assert fetched.note == "The ACP registry, fetched now: 2 agents."
    assert json.loads((tmp_path / CACHE_FILE).read_bytes())["agents"][0]["id"] == "alpha"

    _Handler.body = b"<html>captive portal</html>"  # not a registry: what was kept stays
    portal = await registry.refresh()
    assert portal.source == "cached" and [a.id for a in portal.agents] == ["alpha", "beta"]
    assert portal.note.startswith("Offline: the ACP registry could not be fetched (it is not JSON")

    server.shutdown()
    server.server_close()
    offline = await Registry(tmp_path, url).refresh()  # a later start, the server gone
    assert offline.source == "cached" and len(offline.agents) == 2
    assert offline.note.startswith("Offline: the ACP registry could not be fetched (")
    assert "Showing a copy fetched " in offline.note and offline.note.endswith(": 2 agents.")

    fresh = await Registry(tmp_path / "elsewhere", url).refresh()  # no copy kept: the bundled one
    assert fresh.source == "bundled" and "the copy bundled with ClawQt" in fresh.note
    assert {a.id for a in fresh.agents} >= {"claude-code-acp", "openclaw"}
