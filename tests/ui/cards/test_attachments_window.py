"""Attachment cards and the preview panel in the real window, fed by a real agent subprocess: states
from main-side resolutions, keyboard activation, previews of an image, Markdown and CSV, and "Open with"
only on eligible cards (the system call itself is the one thing replaced: nothing may launch here)."""

from __future__ import annotations

import asyncio

from PIL import Image
from PySide6.QtCore import Qt

from tests.conftest import scripted_agent_argv
from tests.ui.cards.attachment_support import (
    card_data,
    cards_shown,
    child_named,
    items_named,
    make_workspace,
    record_opens,
)
from tests.ui_harness import find_all


def test_cards_resolve_preview_and_open_only_where_eligible(ui):
    make_workspace(ui.tmp_path)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        attachments = window.objects.attachments
        opened = record_opens(window)
        window.objects.conversation.open_external = attachments.files.open_external
        await ui.type_and_send(window, "attach-mix")
        await ui.until(lambda: not window.objects.session.busy)
        root = ui.tmp_path
        local = {str(root / name) for name in ("notes.md", "pic.png", "data.csv", "archive.zip")}
        await ui.until(
            lambda: (
                len(card_data(window)) == 7
                and all(d["status"] != "pending" for d in card_data(window).values())
            )
        )
        data = card_data(window)
        for uri in local:
            assert data[uri]["status"] == "available" and data[uri]["kind"] == "file", uri
        assert data[str(root / "missing.txt")]["status"] == "unavailable"
        assert data[str(root / "missing.txt")]["name"] == "missing.txt"
        assert data["javascript:alert(1)"]["status"] == "unavailable"
        assert data["https://example.com/page"]["kind"] == "remote"
        # the bad references hide neither the prose nor their siblings
        from app.renderer.timeline.turn_view import item_text

        timeline = window.objects.session.timeline
        prose = [
            item_text(timeline.items[row.item_ids[0]])
            for row in timeline.rows
            if row.kind == "assistant-text"
        ]
        assert prose == ["Here are the files."]

        # "Open with" only on available local cards
        for card in cards_shown(window):
            uri = card.property("modelData")["uri"]
            assert child_named(card.parentItem(), "openWithButton").isVisible() == (uri in local), uri
        assert not opened  # nothing opened by itself

        assert ui.find(window, "previewPanel") is None  # made the first time a preview opens

        def card(uri: str):  # looked up each time: a state change rebuilds the card delegates
            return next(c for c in cards_shown(window) if c.property("modelData")["uri"] == uri)

        # keyboard: Space on the focused Markdown card opens its preview, rendered, links inert; a
        # sibling card changing state (a thumbnail arriving, a resolution) keeps the focus where it is
        focused = card(str(root / "notes.md"))
        focused.forceActiveFocus()
        await ui.until(lambda: focused.hasActiveFocus())
        attachments._states[str(root / "data.csv")]["reason"] = "changed meanwhile"
        attachments.statesChanged.emit()
        await ui.frames(window, 2)
        assert focused.hasActiveFocus() and card(str(root / "notes.md")) is focused
        await ui.key(window, Qt.Key.Key_Space, text=" ")
        panel = await ui.until(lambda: ui.find(window, "previewPanel"))
        await ui.until(lambda: panel.isVisible() and attachments.preview.get("kind") == "markdown")
        text = child_named(panel, "previewText").property("text")
        assert "Release notes" in text and "x.png" not in text.split("Release notes")[0]
        assert not opened
        await ui.screenshot(window, "12-preview-markdown")

        # an image: decoded from the bytes the main side read
        card(str(root / "pic.png")).clicked.emit()
        await ui.until(lambda: attachments.preview.get("kind") == "image")
        image = child_named(panel, "previewImage")
        await ui.until(lambda: image.property("implicitWidth") > 0)  # decoded and shown
        assert (image.property("implicitWidth"), image.property("implicitHeight")) == (64, 48)
        await ui.screenshot(window, "13-preview-image")

        # CSV as a table, cells escaped
        card(str(root / "data.csv")).clicked.emit()
        await ui.until(lambda: attachments.preview.get("kind") == "csv")
        html = attachments.preview["html"]
        assert "<table" in html and "alpha" in html and "&lt;b&gt;2&lt;/b&gt;" in html

        # anything else: no preview, an explicit open button
        card(str(root / "archive.zip")).clicked.emit()
        await ui.until(lambda: attachments.preview.get("kind") == "other")
        button = child_named(panel, "previewOpenButton")
        assert button.isVisible() and not opened
        button.clicked.emit()
        await ui.until(lambda: opened)
        assert opened == [(root / "archive.zip").as_uri()]

        # a remote link opens externally only on its click
        card("https://example.com/page").clicked.emit()
        await ui.until(lambda: len(opened) == 2)
        assert opened[1] == "https://example.com/page"

        # an unavailable card cannot be activated
        assert not card("javascript:alert(1)").isEnabled()

        # Esc closes the preview panel
        assert panel.isVisible()
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not panel.isVisible())

    ui.run(scenario())


def test_a_file_swapped_after_its_card_resolved_is_refused_on_click(ui):
    make_workspace(ui.tmp_path)

    async def scenario():
        import os

        window = await ui.open(scripted_agent_argv())
        attachments = window.objects.attachments
        await ui.type_and_send(window, "attach-mix")
        await ui.until(lambda: not window.objects.session.busy)
        target = str(ui.tmp_path / "notes.md")
        await ui.until(lambda: card_data(window).get(target, {}).get("status") == "available")
        os.unlink(target)
        os.mkfifo(target)  # the card still says available; the click must judge again
        attachments.activate(target)
        await ui.until(lambda: attachments.preview.get("error"))
        assert "not a file" in attachments.preview["error"]

    ui.run(scenario())


def test_media_lines_and_openclaws_transcript_form_become_marked_cards_native_wins(ui):
    from app.renderer.timeline.turn_view import item_text

    Image.new("RGB", (10, 10), "blue").save(ui.tmp_path / "chart.png")
    (ui.tmp_path / "report.pdf").write_bytes(b"%PDF-1.4\n")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "media-mix")
        await ui.until(lambda: not window.objects.session.busy)
        native = "file://" + str(ui.tmp_path / "chart.png")
        report = str(ui.tmp_path / "report.pdf")
        await ui.until(lambda: all(d["status"] != "pending" for d in card_data(window).values()))
        # the relative `MEDIA: chart.png` names the native link's file: the main side's identity
        # matches them and the card shows once, as the native resource
        await ui.until(lambda: set(card_data(window)) == {native, report})
        data = card_data(window)
        assert data[native]["source"] == "acp-resource"
        assert data[report]["source"] == "media-transcript" and data[report]["status"] == "available"
        items = window.objects.session.timeline.items.values()
        assistant = [i for i in items if getattr(i, "role", "") == "assistant"]
        shown = "".join(item_text(item) for item in assistant)
        assert "MEDIA: chart.png" not in shown  # the directive line is hidden from the prose
        assert "MEDIA: /fenced/ignored.png" in shown  # inside a fence it is code, not a directive
        assert "Here is the chart." in shown and "Done." in shown

    ui.run(scenario())


def test_files_outside_the_workspace_are_read_only_on_a_click_and_embedded_content_is_shown_as_sent(ui):
    """The agent names an image outside the workspace: no thumbnail and no inline image are made from it
    until the user clicks; an embedded resource shows the text the agent sent, not the file its uri
    names on disk."""
    make_workspace(ui.tmp_path)
    outside_dir = ui.tmp_path.parent / f"{ui.tmp_path.name}-outside"
    outside_dir.mkdir()
    outside = outside_dir / "secret.png"
    Image.new("RGB", (50, 20), (10, 10, 200)).save(outside)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        attachments = window.objects.attachments
        await ui.type_and_send(window, f"outside-files {outside}")
        await ui.until(lambda: not window.objects.session.busy)
        await ui.until(
            lambda: (
                len(card_data(window)) == 3
                and all(d["status"] == "available" for d in card_data(window).values())
                and card_data(window)[str(ui.tmp_path / "pic.png")]["thumbnail"]
            )
        )
        data = card_data(window)
        assert data[str(outside)]["outside"] and data[str(outside)]["thumbnail"] == ""  # not read
        [ask] = [i for i in items_named(window, "askImage") if i.isVisible()]
        await asyncio.sleep(0.3)  # time enough for a read that should not happen
        assert not any(i.isVisible() for i in items_named(window, "inlineImage"))
        assert "secret.png" in ask.property("text")
        await ui.screenshots(window, "32-outside-image-asks-first")
        ask.clicked.emit()  # the user's click reads it

        def shown() -> list:
            return [i.property("implicitWidth") for i in items_named(window, "inlineImage") if i.isVisible()]

        await ui.until(lambda: shown() == [50])

        [embedded_key] = [key for key, d in card_data(window).items() if d["kind"] == "embedded"]
        assert card_data(window)[embedded_key]["name"] == "notes.md"
        attachments.activate(embedded_key)
        await ui.until(lambda: attachments.preview.get("html"))
        assert "EMBEDDED COPY" in attachments.preview["html"]
        assert "Release notes" not in attachments.preview["html"]  # the disk file was not shown
        assert not attachments.preview["canOpen"]

    ui.run(scenario())


def test_cards_hold_no_button_in_a_button_a_folder_opens_in_one_click_and_missing_files_are_checked_again(ui):
    """The card button and "Open with..." are siblings (a button inside a button is neither reachable
    nor announced properly); "Open with..." only on the agent's available files; a folder opens on its
    click, no panel; a checking card does nothing; a file named before it exists shows once it does."""
    from PySide6.QtQuick import QQuickItem

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        attachments = window.objects.attachments
        opened = record_opens(window)
        await ui.type_and_send(window, "attach-folder")
        await ui.until(lambda: not window.objects.session.busy)
        root = ui.tmp_path
        folder, report, later = str(root / "out"), str(root / "out" / "report.txt"), str(root / "later.txt")
        await ui.until(lambda: len(card_data(window)) == 3)
        await ui.until(lambda: all(d["status"] != "pending" for d in card_data(window).values()))
        data = card_data(window)
        assert data[folder]["kind"] == "directory" and data[report]["kind"] == "file"
        assert data[later]["status"] == "unavailable"

        def button_ancestor(item: QQuickItem) -> QQuickItem | None:
            parent = item.parentItem()
            while parent is not None:
                if parent.inherits("QQuickAbstractButton"):
                    return parent
                parent = parent.parentItem()
            return None

        frames = find_all(window.root.contentItem(), "attachmentCardFrame")
        assert len(frames) == 3
        for frame in frames:
            for name in ("attachmentCard", "openWithButton"):
                assert button_ancestor(child_named(frame, name)) is None, name
        shown = {f.property("modelData")["uri"]: child_named(f, "openWithButton").isVisible() for f in frames}
        assert shown == {folder: False, report: True, later: False}

        def card(uri: str):
            return next(c for c in cards_shown(window) if c.property("modelData")["uri"] == uri)

        # keyboard: Tab goes from the card to its "Open with..." button
        card(report).forceActiveFocus()
        await ui.until(lambda: card(report).hasActiveFocus())
        await ui.key(window, Qt.Key.Key_Tab)
        frame = next(f for f in frames if f.property("modelData")["uri"] == report)
        await ui.until(lambda: child_named(frame, "openWithButton").hasActiveFocus())

        # a folder: one click opens it, no preview panel
        card(folder).clicked.emit()
        await ui.until(lambda: opened)
        assert opened == [(root / "out").as_uri()] and not attachments.preview
        await ui.screenshots(window, "35-attachment-cards")

        # a card still being checked does nothing
        attachments._states[report]["status"] = "pending"
        attachments.statesChanged.emit()
        await ui.until(lambda: not card(report).isEnabled())
        attachments.activate(report)
        await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
        assert not attachments.preview and opened == [(root / "out").as_uri()]
        attachments._states[report]["status"] = "available"
        attachments.statesChanged.emit()

        # the file the agent named before writing it: its card is checked again and shows it
        (root / "later.txt").write_text("now here\n")
        await ui.until(lambda: card_data(window)[later]["status"] == "available", 10)

    ui.run(scenario(), timeout=90)
