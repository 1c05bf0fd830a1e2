"""Inline images in the real window, fed by a real agent subprocess: embedded and local ones shown,
remote ones never fetched, a lightbox on a click, the user's own image as a thumbnail, and decoding at a
bounded size with what is past the budget waiting for a click."""

from __future__ import annotations

from PIL import Image
from PySide6.QtCore import Qt

from tests.conftest import scripted_agent_argv
from tests.ui.cards.attachment_support import card_data, items_named, record_opens


def test_inline_images_show_embedded_and_local_ones_never_fetch_remote_and_open_a_lightbox(ui):
    Image.new("RGB", (40, 30), (20, 160, 60)).save(ui.tmp_path / "pic.png")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        attachments = window.objects.attachments
        opened = record_opens(window)
        window.objects.conversation.open_external = attachments.files.open_external
        await ui.type_and_send(window, "images-inline")
        await ui.until(lambda: not window.objects.session.busy)
        await ui.until(
            lambda: (
                sum(
                    i.isVisible() and i.property("implicitWidth") > 0
                    for i in items_named(window, "inlineImage")
                )
                == 2
            )
        )
        sizes = sorted(
            (i.property("implicitWidth"), i.property("implicitHeight"))
            for i in items_named(window, "inlineImage")
            if i.isVisible()
        )
        assert sizes == [(2, 2), (40, 30)]  # embedded data, and the workspace file read by the main side
        [remote] = [i for i in items_named(window, "remoteImage") if i.isVisible()]
        assert not opened  # the remote image was not fetched or opened by itself
        await ui.screenshot(window, "16-inline-images")
        remote.clicked.emit()
        await ui.until(lambda: opened == ["https://example.com/cat.png"])

        local = max(items_named(window, "inlineImage"), key=lambda i: i.property("implicitWidth"))
        attachments.showLightbox(local.property("source").toString())
        lightbox_image = await ui.until(lambda: ui.find(window, "lightboxImage"))
        await ui.until(lambda: lightbox_image.isVisible() and lightbox_image.property("implicitWidth") == 40)
        await ui.screenshot(window, "17-lightbox")
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: attachments.lightbox == "")

    ui.run(scenario())


def test_the_users_image_shows_as_a_thumbnail_in_the_sent_message(ui):
    Image.new("RGB", (300, 150), (200, 120, 20)).save(ui.tmp_path / "photo.png")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        window.objects.composer_files.add_path(str(ui.tmp_path / "photo.png"))
        await ui.type_and_send(window, "hello with a photo")
        await ui.until(lambda: not window.objects.session.busy)
        thumbnail = await ui.until(
            lambda: next((i for i in items_named(window, "cardThumbnail") if i.isVisible()), None)
        )
        await ui.until(lambda: thumbnail.property("implicitWidth") > 0)
        assert (thumbnail.property("implicitWidth"), thumbnail.property("implicitHeight")) == (96, 48)
        data = card_data(window)[(ui.tmp_path / "photo.png").as_uri()]
        assert data["name"] == "photo.png" and data["status"] == "available"

    ui.run(scenario())


def test_inline_images_are_decoded_at_a_bounded_size_and_past_the_budget_wait_for_a_click(ui, monkeypatch):
    from app.renderer.qt.cards import attachments as attachments_module

    monkeypatch.setattr(attachments_module, "MAX_INLINE_SIDE", 512)
    monkeypatch.setattr(attachments_module, "MAX_INLINE_DECODED_BYTES", 2 * 512 * 512 * 4)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "hostile-images 5 1024")
        await ui.until(lambda: not window.objects.session.busy)

        def shown() -> list:
            return [
                (i.property("implicitWidth"), i.property("implicitHeight"))
                for i in items_named(window, "inlineImage")
                if i.isVisible()
            ]

        def asking() -> list:
            return [i for i in items_named(window, "askImage") if i.isVisible()]

        await ui.until(lambda: len(shown()) == 2 and len(asking()) == 3)
        assert shown() == [(512, 512), (512, 512)]  # 1024 px images decoded at the bounded side
        asking()[0].clicked.emit()  # the user asks for one more: shown, whatever the budget
        await ui.until(lambda: len(shown()) == 3 and len(asking()) == 2)

    ui.run(scenario())
