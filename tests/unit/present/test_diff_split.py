"""A diff side by side: context on both sides, a removed line faces what it became, a longer run's
rest faces an empty cell, and the limits of the unified view hold."""

from __future__ import annotations

from app.renderer.present.diff_html import LIGHT
from app.renderer.present.diff_split import pairs, render_split
from app.renderer.present.diff_view import parse_unified

DIFF = """--- a/app.py
+++ b/app.py
@@ -1,5 +1,5 @@
 keep
-old one
-old two
+new one
 middle
-gone
+added a
+added b
"""


def test_a_removed_line_faces_what_it_became_and_context_stands_on_both_sides():
    [file] = parse_unified(DIFF)
    rows = [(o.text if o else None, n.text if n else None) for o, n in pairs(file.lines)]
    assert rows == [
        (rows[0][0], rows[0][0]),  # the hunk header, across both sides
        ("keep", "keep"),
        ("old one", "new one"),
        ("old two", None),
        ("middle", "middle"),
        ("gone", "added a"),
        (None, "added b"),
    ]


def test_the_view_is_one_table_with_the_line_numbers_of_each_side():
    rendered = render_split(parse_unified(DIFF), LIGHT, show_all=False)
    assert rendered.html.startswith("<table") and rendered.total == 7 and rendered.hidden == 0
    assert rendered.html.count("<tr>") == 7
    assert LIGHT.removed_background in rendered.html and LIGHT.added_background in rendered.html


def test_a_long_diff_is_collapsed_like_the_unified_view():
    body = "".join(f"+line {n}\n" for n in range(200))
    rendered = render_split(parse_unified(f"--- a/x\n+++ b/x\n@@ -0,0 +1,200 @@\n{body}"), LIGHT, False)
    assert rendered.shown == 60 and rendered.hidden == rendered.total - 60
