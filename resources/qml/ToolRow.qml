import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// A tool card, or a group of two or more consecutive tool calls with a summary header.
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
        spacing: 4
        ToolButton {
            visible: root.payload.count > 1
            text: (root.payload.expanded ? "\u25be " : "\u25b8 ") + root.payload.count + " tool calls"
                  + (root.payload.running ? " \u00b7 " + root.payload.running + " running" : "")
                  + (root.payload.failed ? " \u00b7 " + root.payload.failed + " failed" : "")
            Accessible.name: (root.payload.expanded ? "Collapse " : "Expand ") + root.payload.count + " tool calls"
            onClicked: controller.timelineModel.toggle(root.payload.key, root.payload.expanded)
        }
        Repeater {
            // an integer model: a new payload re-binds the cards instead of re-creating them (a live
            // terminal card is refreshed many times a second)
            model: root.payload.count > 1 && !root.payload.expanded ? 0 : root.payload.count
            ToolCard { required property int index; tool: root.payload.tools[index]; Layout.fillWidth: true }
        }
    }
}
