"""The host parts behind Settings' own sections: the appearance, notifications, folders and terminal
port kept in the config file, and the agents the user configured there (the rules and the MCP servers
have their own: rules.py, mcp_servers.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from app.contract.registry import Catalog, InstalledAgent


class SettingsHost(Protocol):
    """What the user changes in Settings, kept in their config file (app/main/stores/settings_file.py)."""

    def appearance(self) -> dict[str, Any]:
        """{"colorScheme": "system"|"light"|"dark", "fontScale": float, "reducedMotion": bool,
        "accent": one of appearance.ACCENTS}."""
        ...

    def location(self) -> str:
        """Where the settings are kept, as the window shows it (`~/.config/clawqt/config.json`)."""
        ...

    async def save_appearance(self, changes: dict[str, Any]) -> str:
        """Apply and save `changes` (keys of `appearance()`); "" when saved, else why not (one sentence;
        the change still holds until the app quits)."""
        ...

    def notifications(self) -> dict[str, Any]:
        """{"desktop": bool}: whether the user is called (tray or the window's alert) while away."""
        ...

    async def save_notifications(self, changes: dict[str, Any]) -> str:
        """Like `save_appearance`, for keys of `notifications()`."""
        ...

    def folders(self) -> list[str]:
        """The extra folders every agent may use beside each chat's own (`additionalDirectories`)."""
        ...

    async def save_folders(self, folders: list[str]) -> str:
        """Check, apply at once and save the whole list; "" when saved, else why not (one sentence)."""
        ...

    def terminal_tools_port(self) -> int | None:
        """The terminal tools' loopback port chosen in the config (None: ClawQt picks one)."""
        ...

    async def save_terminal_tools_port(self, port: int | None) -> str:
        """Save the port for the next start (None: ClawQt picks); "" when saved, else why not."""
        ...

    def search_index_megabytes(self) -> int:
        """The search index's bound in megabytes (past it the chats changed longest ago are forgotten)."""
        ...

    async def save_search_index_megabytes(self, megabytes: int) -> str:
        """Apply at once and save the bound; "" when saved, else why not (one sentence)."""
        ...


class AgentSettingsHost(Protocol):
    """Adding, editing and removing agents in Settings (`app/main/stores/agent_settings.py`)."""

    def configured(self) -> list[str]:
        """The names of the agents the config file lists (the ones that may be edited and removed)."""
        ...

    def details(self, name: str) -> dict[str, str]:
        """The configured agent's entry as written now, for Settings to show and edit ({} when none)."""
        ...

    async def add(self, name: str, command: str, *, folder: str = "", env_text: str = "") -> str:
        """Offer a new agent at once and save it; "" when saved, else why not (one sentence)."""
        ...

    async def edit(
        self, name: str, command: str, folder: str, env_text: str, default_mode: str, default_model: str
    ) -> str:
        """Save a configured agent's new details for its next start; "" when saved, else why not."""
        ...

    def registry(self) -> Catalog:
        """The ACP registry's agents known without the network (the last fetched copy, else the one
        bundled with ClawQt), with a note of where they came from."""
        ...

    async def refresh_registry(self) -> Catalog:
        """The registry fetched again; offline, the copy known before with a note saying why."""
        ...

    def installed(self) -> list[InstalledAgent]:
        """The agents installed from the registry, each with its version, the one before and its pin."""
        ...

    def installing(self) -> list[str]:
        """The registry ids of the agents being installed now."""
        ...

    async def install(self, agent_id: str, progress: Callable[[str], None]) -> str:
        """Install (or update to) the catalog's version of an agent, each line of its log to `progress`;
        "" when it is the current version now, else why not."""
        ...

    def cancel_install(self, agent_id: str) -> bool:
        """Stop an install under way (nothing of it is kept)."""
        ...

    def pin(self, agent_id: str, pinned: bool) -> str:
        """Keep (or stop keeping) an installed agent at its version; "" when saved, else why not."""
        ...

    def roll_back(self, agent_id: str) -> str:
        """Return an installed agent to the version before; "" when done, else why not."""
        ...

    async def uninstall(self, agent_id: str) -> str:
        """Remove an installed agent's every version; "" when done, else why not."""
        ...

    async def remove(self, name: str) -> str:
        """Take a configured agent out of the config file (from the next start on)."""
        ...
