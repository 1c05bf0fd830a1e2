"""Per-project settings (app/main/stores/projects.py): the nearest `.clawqt.json` from a chat's folder
up to the home folder; none past it; a file that cannot be used said once and left out, a field of
the wrong kind left out alone."""

from __future__ import annotations

import json
import os

from app.main.core.problems import LocalProblems
from app.main.stores.projects import MAX_PROJECT_BYTES, PROJECT_FILE, Project, Projects


def test_the_nearest_project_file_up_to_home_wins(tmp_path):
    home = tmp_path / "home"
    deep = home / "work" / "repo" / "src"
    deep.mkdir(parents=True)
    (home / "work" / PROJECT_FILE).write_text(json.dumps({"agent": "codex", "mode": "plan"}))
    (tmp_path / PROJECT_FILE).write_text(json.dumps({"agent": "above-home"}))
    projects = Projects(home=str(home))
    assert projects.of(str(deep)) == Project(str(home / "work"), agent="codex", mode="plan")
    (home / "work" / "repo" / PROJECT_FILE).write_text(json.dumps({"model": "m2"}))
    assert projects.of(str(deep)) == Project(str(home / "work" / "repo"), model="m2")  # read each time
    assert projects.of(str(home)) is None  # the file above the home folder is not looked at
    assert projects.of("") is None


def test_a_folder_outside_home_looks_up_to_the_root(tmp_path):
    folder = tmp_path / "srv" / "app"
    folder.mkdir(parents=True)
    (tmp_path / PROJECT_FILE).write_text(json.dumps({"agent": "demo"}))
    assert Projects(home=str(tmp_path / "elsewhere")).of(str(folder)) == Project(str(tmp_path), agent="demo")


def test_a_file_that_cannot_be_used_is_said_once_and_a_wrong_field_alone_is_left_out(tmp_path):
    problems = LocalProblems()
    projects = Projects(problems, home=str(tmp_path))
    path = tmp_path / PROJECT_FILE
    for content in ("{not json", "[1, 2]", "x" * (MAX_PROJECT_BYTES + 1)):
        path.write_text(content)
        assert projects.of(str(tmp_path)) is None
        assert projects.of(str(tmp_path)) is None  # asked again: not said again
    os.remove(path)
    os.mkfifo(path)  # a FIFO in its place is refused, not read for ever
    assert projects.of(str(tmp_path)) is None
    os.remove(path)
    path.write_text(json.dumps({"agent": ["claude"], "mode": "plan", "model": "m" * 500}))
    assert projects.of(str(tmp_path)) == Project(str(tmp_path), mode="plan")
    said = [p.text for p in problems.reported()]
    assert len(said) == 6, said
    assert all(text.startswith(f"The project settings {path} were not used: ") for text in said)
    assert any("not JSON" in t for t in said) and any("not a JSON object" in t for t in said)
    assert any('"agent"' in t for t in said) and any('"model"' in t for t in said)
