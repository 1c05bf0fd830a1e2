import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// The agent's plan with progress.
Item {
    id: root
    required property var plan
    required property bool first
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: box.implicitHeight + 8

    TurnGutter { first: root.first; height: parent.height }
    Rectangle {
        id: box
        x: 44; y: 4
        width: root.width - x - Theme.pad
        implicitHeight: layout.implicitHeight + 2 * Theme.gap
        radius: Theme.radius; color: Theme.surface; border.color: Theme.border
        ColumnLayout {
            id: layout
            x: Theme.pad; y: Theme.gap
            width: parent.width - 2 * Theme.pad
            RowLayout {
                Text { text: "Plan"; font.bold: true; color: Theme.text }
                ProgressBar { Layout.fillWidth: true; from: 0; to: Math.max(1, root.plan.total); value: root.plan.done }
                Text { text: root.plan.done + " / " + root.plan.total; color: Theme.muted }
            }
            Repeater {
                model: root.plan.entries
                Text {
                    required property var modelData
                    text: (modelData.status === "completed" ? "\u2611 " : modelData.status === "in_progress" ? "\u25b6 " : "\u2610 ")
                          + modelData.content
                    color: modelData.status === "completed" ? Theme.muted : Theme.text
                    font.strikeout: modelData.status === "completed"
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
            }
        }
    }
}
