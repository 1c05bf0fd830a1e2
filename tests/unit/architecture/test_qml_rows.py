"""The conversation's rows and the cards in them read no window-wide name: each is handed the window
objects it uses as one required property (`objects`, app/renderer/qt/conversation/row_objects.py), as
NeoChat's delegates are handed their room. Only Main.qml and the panels read the context properties
the window sets; the common look (Theme, the icon label, the spinner) stays window-wide."""

from __future__ import annotations

import re

from tests.paths import REPO

QML = REPO / "resources" / "qml"
MADE_IN_ROWS = ("TextBlocks", "TurnHeader", "ToolCard", "DiffView", "TerminalView")  # built by a row


def context_names() -> set[str]:
    """The names ChatObjects.context() gives QML (read from window.py: this test imports no Qt)."""
    source = (REPO / "app/renderer/qt/window.py").read_text()
    named = source.split("def _named(self)", 1)[1].split("\n    def ", 1)[0]
    return set(re.findall(r'^\s*"(\w+)": self\.', named, flags=re.M)) | {"rowObjects"}


def rows_and_cards() -> list[str]:
    """Every delegate the conversation chooses by row kind, and what rows build inside them."""
    chooser = (QML / "conversation/Conversation.qml").read_text()
    delegates = re.findall(r"DelegateChoice \{ roleValue: \"[\w-]+\"; (\w+) \{", chooser)
    return sorted(set(delegates) | set(MADE_IN_ROWS))


def window_names_read(text: str, names: set[str]) -> list[str]:
    """Each window-wide name a QML text reads, as `line N: name` (comments and strings left out)."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line).split("//", 1)[0]
        for name in re.findall(r"(?<![\w.])([a-z]\w*)\s*\.", code):
            if name in names:
                found.append(f"line {number}: {name}")
    return found


def _file(component: str) -> str:
    [path] = [p for p in QML.rglob(f"{component}.qml")]
    return path.read_text()


def test_every_row_and_card_is_handed_its_objects_and_reads_no_window_wide_name():
    names = context_names()
    assert {"timeline", "conversation", "turn", "attachments", "rowObjects"} <= names, names
    components = rows_and_cards()
    assert {"UserRow", "AssistantRow", "ToolRow", "ProposalCard", "FooterRow", "TextBlocks"} <= set(
        components
    )
    for component in components:
        text = _file(component)
        assert re.search(r"^\s*(required )?property QtObject objects\b", text, flags=re.M), component
        assert window_names_read(text, names) == [], component


def test_a_name_read_from_the_window_is_found():
    names = context_names()
    planted = 'Item {\n    onClicked: timeline.toggle(0, "", true)  // not conversation.openLink\n}\n'
    assert window_names_read(planted, names) == ["line 2: timeline"]
    assert window_names_read("    text: root.objects.timeline.count", names) == []
