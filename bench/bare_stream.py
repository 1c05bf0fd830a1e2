"""The bare contender of `ui_stream_paced`: a PySide6 Qt Quick window doing the same text work with what
Qt offers by itself. The same paced Markdown reply (the scripted agent's `paced` text, chunk sizes and
schedule) is appended to one `Text` item in Qt's own Markdown format inside a Flickable that follows the
bottom: Qt parses and lays out the whole reply on every chunk, as a client with no renderer of its own
would. Run as `python -m bench.bare_stream RATE CHARS` it prints its CPU fraction, frames a second and
the 99th percentile frame interval as JSON."""

from __future__ import annotations

import itertools
import json
import sys
import time

from bench.common import cpu_s, percentile

QML = b"""
import QtQuick
import QtQuick.Controls
ApplicationWindow {
    width: 1180; height: 780; visible: true
    Flickable {
        id: view
        anchors.fill: parent
        contentHeight: reply.height + 40
        Text {
            id: reply
            objectName: "reply"
            x: 20; y: 20; width: view.width - 40
            wrapMode: Text.Wrap
            textFormat: Text.MarkdownText
            onHeightChanged: view.contentY = Math.max(0, view.contentHeight - view.height)
        }
    }
}
"""


def main(rate: float, chars: int) -> dict[str, float]:
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtQml import QQmlApplicationEngine
    from PySide6.QtQuick import QQuickItem

    from tests.agents.turn_prompts import paced_chunks, paced_markdown

    app = QGuiApplication(sys.argv[:1])
    engine = QQmlApplicationEngine()
    engine.loadData(QML)
    window = engine.rootObjects()[0]
    reply = window.findChild(QQuickItem, "reply")
    text = paced_markdown(chars)
    chunks = paced_chunks(text)
    swaps: list[float] = []
    window.frameSwapped.connect(lambda: swaps.append(time.perf_counter()))
    clock = {"started": 0.0, "cpu": 0.0}
    figures: dict[str, float] = {}
    timer = QTimer()
    timer.setSingleShot(True)

    def chunk() -> None:
        piece = next(chunks, None)
        if piece is None:
            wall = time.perf_counter() - clock["started"]
            streamed = [t for t in swaps if t >= clock["started"]]
            figures.update(
                cpu_fraction=(cpu_s() - clock["cpu"]) / wall,
                frames_per_s=len(streamed) / wall,
                p99_frame_ms=percentile([b - a for a, b in itertools.pairwise(streamed)], 0.99) * 1000,
                wall_s=wall,
            )
            app.quit()
            return
        _, sent = piece
        reply.setProperty("text", text[:sent])  # Qt parses and lays out the whole reply again
        delay = clock["started"] + sent / rate - time.perf_counter()
        timer.start(max(0, int(delay * 1000)))

    timer.timeout.connect(chunk)

    def begin() -> None:
        clock["started"], clock["cpu"] = time.perf_counter(), cpu_s()
        chunk()

    QTimer.singleShot(500, begin)  # the window settled, as the app's runs wait before streaming
    app.exec()
    return figures


if __name__ == "__main__":
    print(json.dumps(main(float(sys.argv[1]), int(sys.argv[2]))), flush=True)
