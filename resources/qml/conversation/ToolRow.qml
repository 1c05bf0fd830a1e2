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
        RowLayout {  // the group's words (what it did, or what runs) and, at the right, how many calls
            visible: root.summary.count > 1
            Layout.fillWidth: true
            ToolButton {
                id: groupToggle
                objectName: "toolGroupToggle"
                text: root.summary.words
                Layout.maximumWidth: column.width - groupCount.implicitWidth - Theme.gap
                contentItem: RowLayout {  // long words (a running call's title) end in an ellipsis
                    spacing: Theme.spaceSmall
                    Icon { icon: root.expanded ? "chevron-down" : "chevron-right"; size: Theme.iconMedium; color: Theme.muted }
                    Text { textFormat: Text.PlainText; text: groupToggle.text; color: Theme.text2; elide: Text.ElideRight
                           Layout.fillWidth: true }
                }
                Accessible.name: (root.expanded ? "Collapse " : "Expand ") + root.summary.count + " tool calls: "
                                 + root.summary.words
                onClicked: root.objects.timeline.toggle(root.index, "", root.expanded)
            }
            Item { Layout.fillWidth: true }
            Text {
                id: groupCount
                objectName: "toolGroupCount"
                textFormat: Text.PlainText
                text: root.summary.count + " tools"
                      + (root.summary.running ? " \u00b7 " + root.summary.running + " running" : "")
                      + (root.summary.failed ? " \u00b7 " + root.summary.failed + " failed" : "")
                color: root.summary.failed ? Theme.danger : Theme.muted
                font.pixelSize: Theme.fontCaption
            }
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
