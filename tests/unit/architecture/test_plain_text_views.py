"""Every string an agent, a file or the user chooses is drawn as plain text: no view leaves a text item at
Qt's `AutoText`, which takes anything that looks like a tag for rich text (a permission card could show
"ls -la" with the rest of the command in white, and `<img src=...>` is fetched, or crashes a button's
label). The window test (tests/ui/conversation/test_plain_text_window.py) checks the same at run time with
markup in every field an agent can send; this one holds every view to the rule, also those no test draws:
text items say their format, and controls whose style draws their text (buttons, menu items, tool tips,
combo box entries, placeholders) show only the app's own words unless they draw it themselves."""

from __future__ import annotations

import re

from tests.paths import REPO
from tests.qml_scan import QmlObject, mask, objects

QML = REPO / "resources" / "qml"
TEXT_ITEMS = frozenset({"Text", "Label", "TextEdit", "TextArea"})
# controls whose style draws `text` (or `title`) with a Text at AutoText
STYLED_LABELS = frozenset(
    {
        "Button", "ToolButton", "RoundButton", "DelayButton", "CheckBox", "RadioButton", "Switch",
        "TabButton", "MenuItem", "MenuBarItem", "ItemDelegate", "CheckDelegate", "RadioDelegate",
        "SwitchDelegate", "SwipeDelegate", "ToolTip",
    }
)  # fmt: skip
TITLED = frozenset({"Dialog", "GroupBox", "Page", "Menu"})
# a value that is the app's own words: string literals, joined or chosen between
_LITERAL = r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
_WORDS = re.compile(rf"{_LITERAL}(?:\s*\+\s*{_LITERAL})*")


def _top_level(masked: str, char: str) -> int:
    """The first `char` outside parentheses in a masked expression, or -1."""
    depth = 0
    for index, c in enumerate(masked):
        depth += c in "([{"
        depth -= c in ")]}"
        if c == char and depth == 0:
            return index
    return -1


def own_words(value: str) -> bool:
    """True for literals, literals joined with `+`, and `condition ? a : b` where a and b are."""
    value = value.strip().rstrip(";").strip()
    masked = mask(value)
    if masked.startswith("(") and masked.endswith(")") and _top_level(masked[1:-1], ")") < 0:
        return own_words(value[1:-1])
    if _WORDS.fullmatch(value):
        return True
    ask = _top_level(masked, "?")
    if ask < 0:
        return False
    rest, masked_rest = value[ask + 1 :], masked[ask + 1 :]
    colon = _top_level(masked_rest, ":")
    return colon >= 0 and own_words(rest[:colon]) and own_words(rest[colon + 1 :])


def plain_text_problems(text: str) -> list[str]:
    """Where one QML text could draw a chosen string as rich text, as `line N: Type why`."""
    found = []
    for obj in objects(text):
        why = _problem(obj)
        if why:
            found.append(f"line {obj.line}: {obj.type} {why}")
    return found


def _problem(obj: QmlObject) -> str:
    props = obj.props
    if obj.type in TEXT_ITEMS and "textFormat" not in props:
        return "has no textFormat"
    if obj.type in STYLED_LABELS and "contentItem" not in props and not own_words(props.get("text", '""')):
        return f"draws text {props['text']!r} through its style: give it a plain contentItem"
    if obj.type in TITLED and not own_words(props.get("title", '""')):
        return f"draws title {props['title']!r} through its style"
    if obj.type == "ComboBox" and "delegate" not in props and not props.get("model", "[").startswith("["):
        return "lists its model through the style's entries: give it a PlainChoice delegate"
    tip = props.get("ToolTip.text")
    if tip is not None and not own_words(tip):
        return f"shows ToolTip.text {tip!r} through the style: use a PlainToolTip"
    placeholder = props.get("placeholderText")
    if placeholder is not None and not own_words(placeholder):
        return f"shows placeholderText {placeholder!r} through the style"
    return ""


def test_no_view_draws_a_chosen_string_as_rich_text():
    files = sorted(QML.rglob("*.qml"))
    assert len(files) > 20  # the glob found the views
    problems = {p.name: plain_text_problems(p.read_text()) for p in files}
    assert {name: found for name, found in problems.items() if found} == {}


def test_the_check_sees_each_way_a_string_reaches_rich_text():
    qml = """Item {
    Text { text: model.title }
    Label { textFormat: Text.PlainText; text: model.title }
    Button { text: (index + 1) + ". " + modelData.name }
    Button { text: "Open" }
    Button { text: copied ? "Copied" : "Copy" }
    Button { text: modelData.name; contentItem: IconLabel { label: parent.text } }
    MenuItem {
        text: option.name
    }
    Switch { text: option.name }
    ComboBox { model: option.choices }
    ComboBox { model: ["Light", "Dark"] }
    Rectangle { ToolTip.text: entry.agentName; ToolTip.visible: hovered }
    Rectangle { ToolTip.text: "Remove" }
    TextField { placeholderText: modelData.label }
    Dialog { title: "Rename session" }
    TextEdit {
        // a comment { with braces }
        text: "}"
        function go() { if (a) { b() } }
    }
}"""
    assert plain_text_problems(qml) == [
        "line 2: Text has no textFormat",
        "line 4: Button draws text '(index + 1) + \". \" + modelData.name' through its style: give it a "
        "plain contentItem",
        "line 8: MenuItem draws text 'option.name' through its style: give it a plain contentItem",
        "line 11: Switch draws text 'option.name' through its style: give it a plain contentItem",
        "line 12: ComboBox lists its model through the style's entries: give it a PlainChoice delegate",
        "line 14: Rectangle shows ToolTip.text 'entry.agentName' through the style: use a PlainToolTip",
        "line 16: TextField shows placeholderText 'modelData.label' through the style",
        "line 18: TextEdit has no textFormat",
    ]
