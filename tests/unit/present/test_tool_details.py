"""A tool's details as a reader wants them: input fields as `key: value` lines (bounded, no braces),
output that is Markdown rendered without its fences printed, and a file's or a command's own text
left as written even when it looks like Markdown."""

from __future__ import annotations

from app.renderer.present.tool_details import INPUT_LINES, input_lines, is_markdown, output_html


def test_input_fields_are_key_value_lines_bounded_and_one_line_each():
    assert input_lines({"path": "src/app.py", "limit": 40}) == "path: src/app.py\nlimit: 40"
    nested = input_lines({"options": {"a": [1, 2]}, "text": "two\n  lines"})
    assert nested == 'options: {"a": [1, 2]}\ntext: two lines'  # nested values compact, on one line
    many = input_lines({f"k{n}": n for n in range(INPUT_LINES + 3)})
    assert many.splitlines()[-1] == "\u2026 3 more" and len(many.splitlines()) == INPUT_LINES + 1
    assert input_lines({"q": "x" * 500}).endswith("\u2026") and len(input_lines({"q": "x" * 500})) < 210
    assert input_lines(None) == "" and input_lines({}) == "" and input_lines("ls -la") == "ls -la"


def test_markdown_output_is_rendered_and_a_files_own_text_stays_as_written():
    fenced = "Found it:\n\n```python\nprint('hi')\n```\n"
    html = output_html("search", fenced, dark=False)
    assert "```" not in html and "print" in html  # the fence is drawn, never printed
    assert is_markdown("fetch", "# Title\n\nSee [the docs](https://example.com).")
    assert not is_markdown("read", "# a comment in a file\nx = 1\n")  # a file's text, not a heading
    assert not is_markdown("execute", "- not a list, a command's output\n")
    assert is_markdown("read", "```\nfile body\n```")  # an agent that fences a file's text
    assert output_html("other", "plain words, nothing marked", dark=False) == ""
    assert output_html("other", "   ", dark=False) == ""
