"""Settings kept in the user's config file (app/main/stores/settings_file.py): read with each wrong value
named and its default used; saved keeping everything else in the file, through a temporary file; never
written over a file ClawQt cannot read."""

from __future__ import annotations

import json
import os
import stat

import pytest

from app.main.stores.config import read_config
from app.main.stores.settings_file import (
    Appearance,
    Notifications,
    SettingsFile,
    read_appearance,
    read_notifications,
)


def test_the_appearance_is_read_and_each_wrong_value_is_named_with_its_default_used(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(
        json.dumps(
            {"appearance": {"colorScheme": "dark", "fontScale": 1.3, "reducedMotion": True, "accent": "pink"}}
        )
    )
    assert read_config(config).appearance == Appearance("dark", 1.3, True, "pink")
    config.write_text(
        json.dumps(
            {
                "appearance": {
                    "colorScheme": "purple",
                    "fontScale": 9,
                    "reducedMotion": "yes",
                    "accent": "#ff0000",
                    "x": 1,
                }
            }
        )
    )
    read = read_config(config)
    assert read.appearance == Appearance()
    texts = [p.text for p in read.problems]
    assert len(texts) == 4
    assert texts[0].startswith('"appearance.colorScheme" in your config file') and '"system"' in texts[0]
    assert '"appearance.fontScale"' in texts[1] and "from 0.75 to 2.0" in texts[1]
    assert '"appearance.reducedMotion"' in texts[2] and "true or false" in texts[2]
    assert '"appearance.accent"' in texts[3] and '"blue", "violet"' in texts[3]


def test_an_appearance_that_is_not_an_object_is_named(tmp_path):
    problems: list = []
    assert read_appearance([1], tmp_path / "c.json", problems) == Appearance()
    assert problems[0].text.endswith("is ignored: it must be an object of settings, not a list.")
    assert read_appearance(None, tmp_path / "c.json", problems) == Appearance() and len(problems) == 1


async def test_saving_creates_the_file_when_there_is_none(tmp_path):
    config = tmp_path / "new" / "config.json"
    settings = SettingsFile(config)
    assert await settings.save_appearance({"colorScheme": "dark"}) == ""
    assert json.loads(config.read_text()) == {"appearance": {"colorScheme": "dark"}}
    assert stat.S_IMODE(config.stat().st_mode) == 0o600  # a new file is the user's alone
    assert settings.appearance()["colorScheme"] == "dark"


async def test_saving_keeps_every_other_key_and_the_files_permissions(tmp_path):
    config = tmp_path / "config.json"
    before = {
        "agent": {"command": "openclaw acp"},
        "additionalDirectories": ["/srv"],
        "somethingNewer": {"kept": True},
        "appearance": {"reducedMotion": True, "fromANewerClawQt": 3},
    }
    config.write_text(json.dumps(before))
    os.chmod(config, 0o640)
    settings = SettingsFile(config, read_config(config).appearance)
    assert await settings.save_appearance({"fontScale": 1.15}) == ""
    after = json.loads(config.read_text())
    assert after == {
        **before,
        "appearance": {"reducedMotion": True, "fromANewerClawQt": 3, "fontScale": 1.15},
    }
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json"]  # no temporary file left
    assert read_config(config).appearance == Appearance("system", 1.15, True)


async def test_a_file_clawqt_cannot_read_is_never_overwritten_and_the_user_is_told(tmp_path):
    config = tmp_path / "config.json"
    broken = b'{"agent": {"command": "openclaw acp"},\n oops'
    config.write_bytes(broken)
    settings = SettingsFile(config)
    said = await settings.save_appearance({"colorScheme": "light"})
    assert "is not valid JSON (line 2), so ClawQt does not write to it" in said
    assert "the change applies until you quit ClawQt" in said and "fix the file" in said
    assert config.read_bytes() == broken
    assert settings.appearance()["colorScheme"] == "light"  # it holds for this run


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"colorScheme": "blue"}, '"colorScheme" was not changed'),
        ({"fontScale": 0.1}, '"fontScale" was not changed'),
        ({"fontScale": True}, '"fontScale" was not changed'),
        ({"reducedMotion": 1}, '"reducedMotion" was not changed'),
        ({"accent": "teal"}, '"accent" was not changed'),
        ({"volume": 3}, "ClawQt has no such setting"),
    ],
)
async def test_a_value_settings_cannot_hold_is_refused_and_nothing_is_written(tmp_path, changes, says):
    config = tmp_path / "config.json"
    settings = SettingsFile(config)
    assert says in await settings.save_appearance(changes)
    assert not config.exists() and settings.appearance() == Appearance().as_dict()


async def test_a_folder_in_the_way_is_a_sentence_not_an_exception(tmp_path):
    config = tmp_path / "config.json"
    config.mkdir()
    said = await SettingsFile(config).save_appearance({"colorScheme": "dark"})
    assert said.startswith(f"Your config file {config} cannot be read") or "could not be saved" in said


async def test_notifications_are_read_and_saved_beside_the_appearance(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"appearance": {"colorScheme": "dark"}, "notifications": {"desktop": "no"}}))
    read = read_config(config)
    assert read.notifications == Notifications()  # on unless the user turns it off
    assert [p.text for p in read.problems] == [
        f'"notifications.desktop" in your config file {config} is ignored: it must be true or false.'
    ]
    settings = SettingsFile(config, read.appearance, read.notifications)
    assert await settings.save_notifications({"desktop": False}) == ""
    assert json.loads(config.read_text()) == {
        "appearance": {"colorScheme": "dark"},
        "notifications": {"desktop": False},
    }
    assert read_config(config).notifications == Notifications(False) and settings.notifications() == {
        "desktop": False,
        "dailyTokens": 0,
    }
    assert "was not changed" in await settings.save_notifications({"desktop": 0})
    # a day's token budget (Settings' usage section): a whole number, 0 for none
    assert await settings.save_notifications({"dailyTokens": 50_000}) == ""
    assert read_config(config).notifications == Notifications(False, 50_000)
    for wrong in (-1, 2.5, "many", True):
        assert "was not changed" in await settings.save_notifications({"dailyTokens": wrong})
    problems: list = []
    assert read_notifications("loud", config, problems) == Notifications()
    assert problems[0].text.endswith("it must be an object of settings, not text.")


async def test_extra_folders_are_checked_applied_and_written_and_an_unreadable_file_is_kept(tmp_path):
    from app.main.stores.settings_file import MAX_FOLDERS, SettingsFile

    config = tmp_path / "config.json"
    config.write_text(json.dumps({"agent": "openclaw acp"}))
    folder = tmp_path / "docs"
    folder.mkdir()
    applied: list[list[str]] = []
    settings = SettingsFile(config, on_folders=applied.append)
    assert await settings.save_folders(["relative/path"]) == (
        "The folders were not changed: relative/path is not a full path."
    )
    assert "there is no folder" in await settings.save_folders([str(tmp_path / "missing")])
    assert "At most" in await settings.save_folders([str(folder)] * (MAX_FOLDERS + 1))
    assert applied == [] and settings.folders() == []
    assert await settings.save_folders([str(folder), str(folder)]) == ""
    assert applied == [[str(folder)]] and settings.folders() == [str(folder)]
    assert json.loads(config.read_text()) == {"agent": "openclaw acp", "additionalDirectories": [str(folder)]}
    assert read_config(config).additional_directories == (str(folder),)

    config.write_bytes(b"{oops")
    said = await settings.save_folders([])
    assert "does not write to it" in said and config.read_bytes() == b"{oops"
    assert applied[-1] == [] and settings.folders() == []  # it holds for this run


async def test_the_search_indexs_bound_is_read_checked_applied_and_written(tmp_path):
    from app.main.stores.config import read_config
    from app.main.stores.settings_file import DEFAULT_SEARCH_MB, SettingsFile

    config = tmp_path / "config.json"
    config.write_text(json.dumps({"searchIndexMegabytes": "lots"}))
    read = read_config(config)
    assert read.search_megabytes == DEFAULT_SEARCH_MB
    assert [p.text for p in read.problems] == [
        f'"searchIndexMegabytes" in your config file {config} is ignored: it must be a whole number of '
        "megabytes from 16 to 1,000,000."
    ]
    applied: list[int] = []
    settings = SettingsFile(config, search_megabytes=read.search_megabytes)
    settings.on_search_size = applied.append
    assert await settings.save_search_index_megabytes(256) == ""
    assert applied == [256] and settings.search_index_megabytes() == 256
    assert read_config(config).search_megabytes == 256
    for wrong in (8, 2_000_000, True):
        assert "was not changed" in await settings.save_search_index_megabytes(wrong)
    assert applied == [256] and read_config(config).search_megabytes == 256
