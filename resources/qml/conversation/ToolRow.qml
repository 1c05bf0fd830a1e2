import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../cards"
import "../common"

// A tool card, or a group of two or more consecutive tool calls with a summary header.
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property int index
    required property var tools
    required property var summary
    required property bool expanded
    required property bool first
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: turnHeader.extra + column.implicitHeight + Theme.gap

    TurnHeader { id: turnHeader; objects: root.objects; first: root.first }
    ColumnLayout {
        id: column
        x: Theme.columnX(root.width); y: Theme.spaceTight + turnHeader.extra
        width: Theme.columnWidth(root.width)
        spacing: Theme.spaceTight
        ToolButton {
            id: groupToggle
            visible: root.summary.count > 1
            text: root.summary.count + " tool calls"
                  + (root.summary.running ? " \u00b7 " + root.summary.running + " running" : "")
                  + (root.summary.failed ? " \u00b7 " + root.summary.failed + " failed" : "")
            contentItem: IconLabel { icon: root.expanded ? "chevron-down" : "chevron-right"; label: groupToggle.text
                                     color: Theme.muted }
            Accessible.name: (root.expanded ? "Collapse " : "Expand ") + root.summary.count + " tool calls"
            onClicked: root.objects.timeline.toggle(root.index, "", root.expanded)
        }
        Repeater {
            // an integer model: new tool values re-bind the cards instead of re-creating them (counted
            // from `tools` itself, which may change a moment before `summary`)
            model: root.tools.length > 1 && !root.expanded ? 0 : root.tools.length
            ToolCard { objects: root.objects; required property int index; tool: root.tools[index]; rowIndex: root.index
                       Layout.fillWidth: true }
        }
    }
}
