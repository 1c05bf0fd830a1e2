import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// A thought: open while streaming, collapsed afterwards (the user's toggle wins).
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property int index
    required property var blocks
    required property bool streaming
    required property bool expanded
    required property bool first
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: turnHeader.extra + column.implicitHeight + Theme.gap

    function settle() { blocksView.ensurePolished(); column.ensurePolished() }  // Conversation.qml says why
    TurnHeader { id: turnHeader; objects: root.objects; first: root.first }
    ColumnLayout {
        id: column
        x: Theme.columnX(root.width); y: Theme.spaceTight + turnHeader.extra
        width: Theme.columnWidth(root.width)
        ToolButton {
            id: thoughtToggle
            text: root.streaming ? "Thinking\u2026" : "Thought"
            contentItem: IconLabel { icon: root.expanded ? "chevron-down" : "chevron-right"; label: thoughtToggle.text
                                     color: Theme.muted; labelFont.italic: true }
            Accessible.name: root.expanded ? "Collapse thought" : "Expand thought"
            onClicked: root.objects.timeline.toggle(root.index, "", root.expanded)
        }
        TextBlocks {
            id: blocksView
            objects: root.objects
            visible: root.expanded
            Layout.fillWidth: true
            Layout.leftMargin: Theme.pad
            blocks: root.expanded ? root.blocks : []
            textColor: Theme.muted
        }
    }
}
