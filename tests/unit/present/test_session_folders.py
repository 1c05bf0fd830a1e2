"""The sidebar's folder groups: a folder named first, then where it is (home as ~); the groups in the
order of their first row, each group's rows in their order."""

from __future__ import annotations

from app.renderer.present.session_folders import NO_FOLDER, folder_group, grouped_by_first


def test_a_folder_is_named_first_then_where_it_is_with_home_as_a_tilde():
    assert folder_group("/home/ada/work/clawqt", home="/home/ada") == "clawqt \u00b7 ~/work"
    assert folder_group("/home/ada/work/clawqt/", home="/home/ada") == "clawqt \u00b7 ~/work"
    assert folder_group("/srv/build", home="/home/ada") == "build \u00b7 /srv"
    assert folder_group("/home/adamant/x", home="/home/ada") == "x \u00b7 /home/adamant"  # not under home
    assert folder_group("/home/ada", home="/home/ada") == "~"
    assert folder_group("", home="/home/ada") == folder_group(None) == NO_FOLDER
    assert folder_group("/", home="/home/ada") == "/"


def test_rows_are_grouped_in_the_order_of_each_groups_first_row():
    rows = [{"k": 1, "group": "b"}, {"k": 2, "group": "a"}, {"k": 3, "group": "b"}, {"k": 4, "group": "a"}]
    assert [r["k"] for r in grouped_by_first(rows)] == [1, 3, 2, 4]
