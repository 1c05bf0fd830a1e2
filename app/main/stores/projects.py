"""Per-project settings: a `.clawqt.json` in a chat's folder, or in a folder above it up to the user's
home (the nearest wins), naming the agent new chats there start with and the mode and model they
start in. It may come with a repository the user cloned, so it chooses only among what the user
already has: one of the agents ClawQt offers, a mode or model the agent itself offers (anything else
is left alone). The folders and MCP servers it asks to grant (project_grants.py) are used only once
the user trusted them as they read now; until then a chat made there says so once.

Read each time a chat is made (the file is small and the user may have just edited it), through
`read_user_file` (a regular file of at most MAX_PROJECT_BYTES); a file that cannot be used says why
once per change, and the chat is made as without it."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from app.main.core.problems import LocalProblems
from app.main.files.regular_files import read_user_file
from app.main.stores.project_grants import NO_GRANTS, Grants, ProjectTrust, read_grants

PROJECT_FILE = ".clawqt.json"
MAX_PROJECT_BYTES = 64 * 1024
MAX_VALUE_CHARS = 200
FIELDS = ("agent", "mode", "model")


@dataclass(frozen=True)
class Project:
    folder: str  # the folder the file is in
    agent: str = ""  # an agent's id or name, as the user's Settings list them
    mode: str = ""
    model: str = ""
    grants: Grants = NO_GRANTS  # folders and MCP servers it asks for (used once trusted)

    @property
    def file(self) -> str:
        return os.path.join(self.folder, PROJECT_FILE)


def _candidates(cwd: str, home: str) -> list[Path]:
    """`cwd` and the folders above it, up to `home` when `cwd` is inside it (else up to the root)."""
    here = Path(os.path.abspath(cwd))
    top = Path(os.path.abspath(home)) if home else None
    folders = [here, *here.parents]
    if top is not None and (here == top or top in here.parents):
        folders = folders[: folders.index(top) + 1]
    return folders


class Projects:
    def __init__(
        self,
        problems: LocalProblems | None = None,
        home: str | None = None,
        trust: ProjectTrust | None = None,
    ) -> None:
        self._problems = problems
        self._home = home if home is not None else os.path.expanduser("~")
        self.trust = trust  # None: nothing is ever trusted (no data folder given)

    def of(self, cwd: str) -> Project | None:
        """The settings for chats in `cwd` (None when no folder up to the home folder has any)."""
        if not cwd:
            return None
        for folder in _candidates(cwd, self._home):
            path = folder / PROJECT_FILE
            if not os.path.lexists(path):
                continue
            return self._read(path)
        return None

    def agent_for(self, cwd: str, offered: Mapping[str, tuple[str, ...]]) -> str:
        """The id of the offered agent the project of `cwd` names by any of its names ("" for none)."""
        project = self.of(cwd)
        wanted = project.agent.casefold() if project is not None else ""
        names = ((agent_id, {n.casefold() for n in known}) for agent_id, known in offered.items())
        return next((agent_id for agent_id, known in names if wanted and wanted in known), "")

    def grants(self, cwd: str) -> Grants:
        """What the project of `cwd` grants its chats: its folders and servers when the user trusted
        them as they read now, else none (and a project asking for them is said once per change)."""
        project = self.of(cwd)
        if project is None or not project.grants:
            return NO_GRANTS
        if self.trust is not None and self.trust.trusted(project.file, project.grants):
            return project.grants
        if self._problems is not None:
            self._problems.add(
                f"The project settings {project.file} ask to grant folders or MCP servers to its chats; "
                "they are not used until you trust them in Settings > Folders.",
                key=f"project grants {project.file} {project.grants.digest}",
            )
        return NO_GRANTS

    def set_trusted(self, cwd: str, trusted: bool) -> str:
        """Trust (or stop trusting) the grants of the project of `cwd` as they read now; "" when done."""
        project = self.of(cwd)
        if project is None or not project.grants:
            return "This chat's folder has no project settings asking for folders or MCP servers."
        if self.trust is None:
            return "Trust cannot be kept here (no data folder)."
        if trusted:
            self.trust.trust(project.file, project.grants)
        else:
            self.trust.forget(project.file)
        return ""

    def shown(self, cwd: str) -> dict[str, str] | None:
        """The project settings for chats in `cwd` as Settings shows them (the file and its values, the
        folders and servers it asks for, one a line, and whether they are trusted)."""
        project = self.of(cwd)
        if project is None:
            return None
        found = {"file": project.file}
        found.update({name: getattr(project, name) for name in FIELDS if getattr(project, name)})
        grants = project.grants
        if grants.folders:
            found["folders"] = "\n".join(grants.folders)
        if grants.servers:
            found["servers"] = "\n".join(f"{s['name']}: {s['command']}" for s in grants.servers)
        if grants.problems:
            found["grantProblems"] = "; ".join(grants.problems)
        if grants:
            trusted = self.trust is not None and self.trust.trusted(project.file, grants)
            found["trusted"] = "yes" if trusted else "no"
        return found

    def _read(self, path: Path) -> Project | None:
        try:
            data = json.loads(read_user_file(path, MAX_PROJECT_BYTES))
        except OSError as exc:
            self._unusable(path, exc.strerror or str(exc))
            return None
        except ValueError as exc:
            self._unusable(path, f"it is not JSON ({exc})")
            return None
        if not isinstance(data, dict):
            self._unusable(path, "it is not a JSON object")
            return None
        values = {}
        for name in FIELDS:
            value = data.get(name, "")
            if not isinstance(value, str) or len(value) > MAX_VALUE_CHARS:
                self._unusable(path, f'"{name}" is not a name of at most {MAX_VALUE_CHARS} characters')
                continue
            values[name] = value.strip()
        return Project(str(path.parent), **values, grants=read_grants(data, path.parent))

    def _unusable(self, path: Path, why: str) -> None:
        """Said once for each file and reason (LocalProblems keeps the keys)."""
        if self._problems is not None:
            self._problems.add(
                f"The project settings {path} were not used: {why}.", key=f"project {path} {why}"
            )
