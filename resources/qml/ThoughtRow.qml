import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// A thought: open while streaming, collapsed afterwards (the user's toggle wins).
Item {
    id: root
    required property var payload
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: column.implicitHeight + 8

    TurnGutter { first: root.payload.first; height: parent.height }
    ColumnLayout {
        id: column
        x: 44; y: 4
        width: root.width - x - Theme.pad
        ToolButton {
            text: (root.payload.expanded ? "\u25be " : "\u25b8 ") + (root.payload.streaming ? "Thinking\u2026" : "Thought")
            font.italic: true
            Accessible.name: root.payload.expanded ? "Collapse thought" : "Expand thought"
            onClicked: controller.timelineModel.toggle(root.payload.key, root.payload.expanded)
        }
        TextBlocks {
            visible: root.payload.expanded
            Layout.fillWidth: true
            Layout.leftMargin: Theme.pad
            blocks: root.payload.expanded ? (root.payload.blocks || []) : []
            textColor: Theme.muted
        }
    }
}
