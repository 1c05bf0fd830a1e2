import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// A replayed trace (the inspector's Open trace…) or a chat read from the search index is shown, read-only:
// what it is, that nothing here reaches an agent, the trace's sessions one by one, and Close.
Rectangle {
    objectName: "traceBanner"
    visible: session.readOnly
    Layout.fillWidth: true
    implicitHeight: traceRow.implicitHeight + Theme.spaceSmall * 2
    color: Theme.warningSubtle
    Accessible.role: Accessible.AlertMessage
    Accessible.name: session.readOnlyNote || "A replayed trace, read-only: " + traceView.name
    RowLayout {
        id: traceRow
        x: Theme.pad; y: Theme.spaceSmall
        width: parent.width - 2 * Theme.pad
        spacing: Theme.gap
        IconLabel { icon: session.readOnlyNote ? "search" : "rotate-ccw-clock"; color: Theme.text
                    label: session.readOnlyNote || "Replay of " + traceView.name; labelFont.bold: true }
        Label { textFormat: Text.PlainText; objectName: "traceSummary"; color: Theme.muted; elide: Text.ElideRight
                Layout.fillWidth: true
                text: "read-only: nothing here reaches an agent"
                      + (traceView.summary ? " \u00b7 " + traceView.summary : "")
                PlainToolTip { visible: traceTip.containsMouse && traceView.failures !== ""; text: traceView.failures }
                MouseArea { id: traceTip; anchors.fill: parent; hoverEnabled: true
                            acceptedButtons: Qt.NoButton } }
        Button { id: tracePrevious; objectName: "tracePrevious"; visible: traceView.count > 1
                 enabled: traceView.index > 0; flat: true
                 contentItem: IconLabel { icon: "arrow-left"; label: "Previous"
                                          color: tracePrevious.enabled ? Theme.text : Theme.muted }
                 Accessible.name: "The trace's previous session"
                 onClicked: traceView.previous() }
        Button { id: traceNext; objectName: "traceNext"; visible: traceView.count > 1
                 enabled: traceView.index < traceView.count - 1; flat: true
                 contentItem: IconLabel { icon: "arrow-right"; label: "Next"
                                          color: traceNext.enabled ? Theme.text : Theme.muted }
                 Accessible.name: "The trace's next session"
                 onClicked: traceView.next() }
        Button { id: traceClose; objectName: "traceClose"
                 contentItem: IconLabel { icon: "x"; label: session.readOnlyNote ? "Close" : "Close replay" }
                 Accessible.name: "Close the replay and go back to the chat"
                 onClicked: traceView.close() }
    }
}
