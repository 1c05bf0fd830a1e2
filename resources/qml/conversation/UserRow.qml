import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The user's message: right-aligned bubble.
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property var blocks
    required property string text
    required property bool optimistic
    required property bool first
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: bubble.y + bubble.height + Theme.spaceTight

    Rectangle {
        id: bubble
        objectName: "userBubble"
        anchors.right: parent.right
        anchors.rightMargin: root.width - Theme.columnX(root.width) - Theme.columnWidth(root.width)
        y: root.first ? Theme.pad : Theme.spaceHair
        width: Math.min(Theme.columnWidth(root.width) * 0.8, Math.max(60, prose.implicitWidth + 2 * Theme.pad))
        height: prose.implicitHeight + 2 * Theme.gap + Theme.spaceHair
        radius: Theme.radiusXl
        color: Theme.bubble
        opacity: root.optimistic ? 0.92 : 1.0
        TextBlocks {
            id: prose
            objects: root.objects
            x: Theme.pad; y: Theme.gap
            width: parent.width - 2 * Theme.pad
            blocks: root.blocks
        }
    }
    Accessible.role: Accessible.Paragraph
    Accessible.name: "You: " + root.text
}
