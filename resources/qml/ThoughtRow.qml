import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// A thought: open while streaming, collapsed afterwards (the user's toggle wins).
Item {
    id: root
    required property int index
    required property var blocks
    required property bool streaming
    required property bool expanded
    required property bool first
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: column.implicitHeight + 8

    TurnGutter { first: root.first; height: parent.height }
    ColumnLayout {
        id: column
        x: 44; y: 4
        width: root.width - x - Theme.pad
        ToolButton {
            text: (root.expanded ? "\u25be " : "\u25b8 ") + (root.streaming ? "Thinking\u2026" : "Thought")
            font.italic: true
            Accessible.name: root.expanded ? "Collapse thought" : "Expand thought"
            onClicked: timeline.toggle(root.index, "", root.expanded)
        }
        TextBlocks {
            visible: root.expanded
            Layout.fillWidth: true
            Layout.leftMargin: Theme.pad
            blocks: root.expanded ? root.blocks : []
            textColor: Theme.muted
        }
    }
}
