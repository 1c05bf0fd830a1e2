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
    required property string messageId  // its checkpoint: the files as they were when it was sent
    required property var outside  // files changed outside the chat since its previous turn (the user's)
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: bubble.y + bubble.height + Theme.spaceTight
                    + (outsideText.visible ? outsideText.implicitHeight + Theme.spaceHair : 0)

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
            naturalWidth: true  // the bubble is as wide as the words need
        }
    }
    Text {  // what the user (or anything outside this chat) changed since the last turn: theirs
        id: outsideText
        objectName: "outsideChanges"
        visible: root.outside.length > 0
        anchors.right: bubble.right
        anchors.top: bubble.bottom
        anchors.topMargin: Theme.spaceHair
        width: Math.min(implicitWidth, Theme.columnWidth(root.width) * 0.8)
        horizontalAlignment: Text.AlignRight
        elide: Text.ElideMiddle
        textFormat: Text.PlainText
        color: Theme.muted
        font.pixelSize: Theme.fontCaption
        text: "Changed outside this chat before this message: "
              + root.outside.map(file => file.name + (file.created ? " (new)" : file.deleted ? " (deleted)" : "")).join(", ")
    }
    HoverHandler { id: hover }
    Row {  // under the pointer (or the keyboard): this message as a checkpoint
        anchors.right: bubble.left
        anchors.rightMargin: Theme.spaceTight
        anchors.verticalCenter: bubble.verticalCenter
        visible: (hover.hovered || restoreButton.activeFocus || branchButton.activeFocus || branchMenu.visible)
                 && root.messageId !== "" && !root.objects.branching.readOnly
        spacing: 0
        ToolButton {  // a new chat from here, with this agent or another; this chat stays as it is
            id: branchButton
            objectName: "branchHereButton"
            contentItem: Icon { icon: "git-branch"; size: Theme.iconSmall; color: Theme.text2 }
            Accessible.name: "Continue from this message in a new chat"
            PlainToolTip { visible: parent.hovered && !branchMenu.visible; text: "Continue from here\u2026" }
            onClicked: branchMenu.popup(this, 0, height)
            Menu {
                id: branchMenu
                objectName: "branchMenu"
                MenuItem { objectName: "menuEditResend"; text: "Edit and resend"
                           onTriggered: root.objects.branching.editAndResend(root.messageId, "") }
                MenuItem { objectName: "menuContinueHere"; text: "Continue from here"
                           onTriggered: root.objects.branching.continueFrom(root.messageId, "") }
                Menu {
                    id: continueWith
                    title: "Continue with"
                    Instantiator {  // a menu takes its items from an Instantiator, not a Repeater
                        model: root.objects.branching.agents
                        delegate: MenuItem {
                            required property var modelData
                            objectName: "continueWith_" + modelData.id
                            text: modelData.name
                            contentItem: ButtonText { horizontalAlignment: Text.AlignLeft }  // as written
                            onTriggered: root.objects.branching.continueFrom(root.messageId, modelData.id)
                        }
                        onObjectAdded: (index, item) => continueWith.insertItem(index, item)
                        onObjectRemoved: (index, item) => continueWith.removeItem(item)
                    }
                }
                Menu {
                    id: resendWith
                    title: "Edit and resend with"
                    Instantiator {
                        model: root.objects.branching.agents
                        delegate: MenuItem {
                            required property var modelData
                            objectName: "resendWith_" + modelData.id
                            text: modelData.name
                            contentItem: ButtonText { horizontalAlignment: Text.AlignLeft }
                            onTriggered: root.objects.branching.editAndResend(root.messageId, modelData.id)
                        }
                        onObjectAdded: (index, item) => resendWith.insertItem(index, item)
                        onObjectRemoved: (index, item) => resendWith.removeItem(item)
                    }
                }
            }
        }
        ToolButton {  // put the files back as they were at this message
            id: restoreButton
            objectName: "restoreHereButton"
            contentItem: Icon { icon: "rotate-ccw"; size: Theme.iconSmall; color: Theme.text2 }
            Accessible.name: "Restore the files to how they were when this message was sent"
            PlainToolTip { visible: parent.hovered; text: "Restore files to here\u2026" }
            onClicked: root.objects.checkpoints.planRestore(root.messageId)
        }
    }
    Accessible.role: Accessible.Paragraph
    Accessible.name: "You: " + root.text
}
