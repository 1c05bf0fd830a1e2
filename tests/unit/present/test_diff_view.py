"""The one unified diff (app/contract/diffs.py), read back into lines (app/renderer/present/diff_view.py) and
rendered (app/renderer/present/diff_html.py) for tool cards and "files changed" alike."""

from __future__ import annotations

from app.contract.diffs import unified_diff
from app.renderer.present.diff_html import COLLAPSED_LINES, DARK, LIGHT, MAX_LINES, render_diffs
from app.renderer.present.diff_view import parse_unified, word_changes

OLD = "import os\n\ndef greet(name):\n    print('hello ' + name)\n\nkeep = 1\n"
NEW = "import os\n\ndef greet(name, loud=False):\n    print(f'hello {name}')\n\nkeep = 1\nadded = 2\n"


def _kinds(text: str) -> list[tuple[str, int | None, int | None, str]]:
    [file] = parse_unified(text)
    return [(line.kind, line.old_no, line.new_no, line.text) for line in file.lines]


def test_an_unchanged_line_is_context_never_removed_and_added():
    """The old tool-card 'diff' printed every old line with - and every new one with +."""
    lines = _kinds(unified_diff(OLD, NEW, "greet.py"))
    assert ("context", 1, 1, "import os") in lines and ("context", 6, 6, "keep = 1") in lines
    assert [t for k, *_, t in lines if k == "removed"] == ["def greet(name):", "    print('hello ' + name)"]
    assert [t for k, *_, t in lines if k == "added"] == [
        "def greet(name, loud=False):",
        "    print(f'hello {name}')",
        "added = 2",
    ]


def test_line_numbers_follow_the_hunk_header_on_each_side():
    old = "".join(f"line {n}\n" for n in range(1, 41))
    new = old.replace("line 5\n", "line five\n").replace("line 30\n", "")
    [file] = parse_unified(unified_diff(old, new, "f"))
    hunks = [line.text for line in file.lines if line.kind == "hunk"]
    assert hunks == ["@@ -2,7 +2,7 @@", "@@ -27,7 +27,6 @@"]
    removed = {line.text: line.old_no for line in file.lines if line.kind == "removed"}
    assert removed == {"line 5": 5, "line 30": 30}
    after = next(line for line in file.lines if line.text == "line 31")
    assert (after.old_no, after.new_no) == (31, 30)
    assert (file.added, file.removed) == (1, 2)


def test_a_removed_line_that_reads_like_a_file_header_stays_a_removed_line():
    text = unified_diff("-- x\n++ y\nz\n", "z\n", "f")
    assert "--- x" in text  # the removed "-- x" line, as a diff prints it
    [file] = parse_unified(text)
    assert [(line.kind, line.text) for line in file.lines if line.kind != "hunk"] == [
        ("removed", "-- x"),
        ("removed", "++ y"),
        ("context", "z"),
    ]


def test_a_created_file_and_a_missing_final_newline():
    [file] = parse_unified(unified_diff(None, "a\nb", "new.py"))
    assert file.created and file.new_path == "new.py" and (file.added, file.removed) == (2, 0)
    assert file.lines[-1].kind == "note" and file.lines[-1].text == "No newline at end of file"


def test_several_files_and_git_headers_are_read_and_text_that_is_no_diff_gives_nothing():
    text = (
        "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+2\n"
        "--- a/y\n+++ b/y\n@@ -0,0 +1,2 @@\n+p\n+q\n"
    )
    files = parse_unified(text)
    assert [(f.old_path, f.new_path, f.added, f.removed) for f in files] == [
        ("a/x", "b/x", 1, 1),
        ("a/y", "b/y", 2, 0),
    ]
    assert parse_unified("just some words\n") == []


def test_a_hunk_cut_short_ends_where_the_text_ends():
    [file] = parse_unified("--- f\n+++ f\n@@ -1,5 +1,5 @@\n-a\n+b\n")
    assert [line.kind for line in file.lines] == ["hunk", "removed", "added"]


def test_changed_words_are_marked_in_a_pair_of_similar_lines_only():
    lines = parse_unified(unified_diff("total = price * count\n", "total = price * amount\n", "f"))[0].lines
    removed, added = (next(line for line in lines if line.kind == kind) for kind in ("removed", "added"))
    assert [removed.text[a:b] for a, b in removed.changed] == ["count"]
    assert [added.text[a:b] for a, b in added.changed] == ["amount"]
    assert word_changes("completely different", "nothing alike here at all!") is None
    assert word_changes("x" * 500, "y" * 500) is None


def test_the_rendered_diff_escapes_markup_and_colours_by_kind():
    files = parse_unified(unified_diff("<b>old</b>\n", "<script>alert(1)</script>\n", "f"))
    html = render_diffs(files, LIGHT, show_all=False).html
    assert "<script" not in html and "<b>" not in html and html.count("&lt;/") == 2
    assert LIGHT.added_background in html and LIGHT.removed_background in html
    assert LIGHT.hunk_background in html


def test_several_files_each_start_with_their_path_and_counts_and_markers_take_their_colours():
    text = unified_diff("a\n", "b\n", "one.py") + unified_diff(None, "new\n", "two.py")
    files = parse_unified(text)
    html = render_diffs(files, DARK, show_all=False).html
    assert html.index("<b>one.py</b>") < html.index("<b>two.py</b>")
    assert html.count(f'<span style="color:{DARK.added_marker}">+1</span>') == 2
    assert f'<span style="color:{DARK.removed_marker}">\u22121</span>' in html
    assert f'<span style="color:{DARK.added_marker}">+</span> b' in html
    single = render_diffs(files[:1], DARK, show_all=False).html
    assert "<b>" not in single  # one file: the view names it above the box


def test_a_long_diff_is_collapsed_until_show_all_and_capped_even_then():
    new = "".join(f"row {n}\n" for n in range(MAX_LINES + 100))
    files = parse_unified(unified_diff(None, new, "big.txt"))
    collapsed = render_diffs(files, LIGHT, show_all=False)
    assert (collapsed.shown, collapsed.total) == (COLLAPSED_LINES, MAX_LINES + 101)  # + the hunk header
    assert collapsed.hidden == collapsed.total - COLLAPSED_LINES
    everything = render_diffs(files, LIGHT, show_all=True)
    assert everything.shown == MAX_LINES and everything.hidden == 101
    assert everything.html.count("<p ") == MAX_LINES


def test_lines_of_a_file_pygments_knows_take_the_code_colours_of_the_theme():
    python = render_diffs(parse_unified(unified_diff(OLD, NEW, "greet.py")), LIGHT, show_all=False).html
    assert '<span style="color:#008000">def</span>' in python  # `default`'s keyword colour, as code blocks
    dark = render_diffs(parse_unified(unified_diff(OLD, NEW, "greet.py")), DARK, show_all=False).html
    assert '<span style="color:#ff7b72">def</span>' in dark  # `github-dark`'s
    # the changed words keep their mark under the colours
    assert f"background-color:{LIGHT.added_word}" in python
    plain = render_diffs(
        parse_unified(unified_diff(OLD, NEW, "notes.unknown-kind")), LIGHT, show_all=False
    ).html
    assert "color:#008000" not in plain  # a file Pygments does not know is drawn as text


def test_a_file_past_the_syntax_limit_is_drawn_plain():
    from app.renderer.present.diff_syntax import SYNTAX_MAX_LINES

    old = "".join(f"x_{n} = {n}\n" for n in range(SYNTAX_MAX_LINES + 10))
    html = render_diffs(parse_unified(unified_diff(None, old, "big.py")), LIGHT, show_all=False).html
    assert "color:#666666" not in html and "color:#008000" not in html  # no operator or number colour
