import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The messages waiting in the shown chat (message_queue.py): each can be sent now, taken back into the
// composer to edit, or removed. Why they wait, and when they go, is said in one line. A card in the
// reading column, on top of the composer it feeds.
Item {
    id: root
    objectName: "messageQueue"
    implicitHeight: visible ? card.height + Theme.spaceTight : 0
    Accessible.role: Accessible.List
    Accessible.name: queue.count === 1 ? "1 queued message" : queue.count + " queued messages"

    readonly property string reason: {
        if (session.sessionKey === "")
            return agent.state === "failed" || agent.state === "exited"
                   ? "Not sent yet: the agent is not running. " + agent.message
                   : "Sent as soon as the chat is open."
        if (session.busy)
            return "Sent one by one as the agent finishes; \u201cSend now\u201d stops it first."
        return "Waiting: the last turn was stopped or did not finish. Send now, edit or remove."
    }

    Rectangle {
        id: card
        objectName: "queueCard"
        x: Theme.columnX(root.width)
        y: Theme.spaceTight
        width: Theme.columnWidth(root.width)
        height: column.implicitHeight + Theme.spaceSmall * 2
        radius: Theme.radiusLarge
        color: Theme.surface
        border.color: Theme.border
        ColumnLayout {
            id: column
            x: Theme.pad; y: Theme.spaceSmall
            width: parent.width - 2 * Theme.pad
            spacing: Theme.spaceTight
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.spaceSmall
                IconLabel { icon: "list-plus"; label: "Queued (" + queue.count + ")"; color: Theme.text
                            labelFont.bold: true }
                Label { textFormat: Text.PlainText; objectName: "queueReason"; text: root.reason; color: Theme.muted
                        font.pixelSize: Theme.fontCaption; elide: Text.ElideRight; Layout.fillWidth: true }
            }
            ListView {
                id: list
                objectName: "queuedMessages"
                Layout.fillWidth: true
                implicitHeight: Math.min(contentHeight, 4.5 * (Theme.fontUi * 2.4))  // more scroll
                clip: true
                interactive: contentHeight > height
                boundsBehavior: Flickable.StopAtBounds
                model: queue.entries
                ScrollBar.vertical: ScrollBar { policy: list.interactive ? ScrollBar.AsNeeded : ScrollBar.AlwaysOff }
                delegate: RowLayout {
                    id: row
                    required property var modelData
                    required property int index
                    objectName: "queuedMessage_" + index
                    width: ListView.view.width
                    spacing: Theme.spaceSmall
                    Accessible.role: Accessible.ListItem
                    Accessible.name: "Queued: " + modelData.text
                    Label {
                        id: queuedText
                        textFormat: Text.PlainText
                        objectName: "queuedText_" + row.index
                        text: (row.index + 1) + ". " + row.modelData.firstLine
                              + (row.modelData.files ? "  (+" + row.modelData.files
                                                       + (row.modelData.files === 1 ? " file)" : " files)") : "")
                        color: Theme.text; elide: Text.ElideRight; Layout.fillWidth: true
                        PlainToolTip {
                            visible: tipArea.containsMouse && (queuedText.truncated || row.modelData.text !== row.modelData.firstLine)
                            text: row.modelData.text + (row.modelData.fileNames ? "\n\n" + row.modelData.fileNames : "")
                        }
                        MouseArea { id: tipArea; anchors.fill: parent; hoverEnabled: true; acceptedButtons: Qt.NoButton }
                    }
                    Button {
                        id: sendNow
                        objectName: "queuedSendNow_" + row.index
                        text: "Send now"
                        flat: true
                        enabled: session.sessionKey !== ""
                        contentItem: IconLabel { icon: "send"; label: sendNow.text
                                                 color: sendNow.enabled ? Theme.text : Theme.muted }
                        Accessible.name: session.busy ? "Stop the agent and send this message now"
                                                      : "Send this message now"
                        onClicked: turn.sendQueuedNow(row.modelData.id)
                    }
                    Button {
                        id: edit
                        objectName: "queuedEdit_" + row.index
                        text: "Edit"
                        flat: true
                        contentItem: IconLabel { icon: "pencil"; label: edit.text }
                        Accessible.name: "Take this message back into the composer to edit it"
                        onClicked: turn.editQueued(row.modelData.id)
                    }
                    Button {
                        id: remove
                        objectName: "queuedRemove_" + row.index
                        flat: true
                        implicitWidth: implicitContentWidth + leftPadding + rightPadding  // an icon: no wide box
                        contentItem: IconLabel { icon: "trash" }
                        Accessible.name: "Remove this queued message"
                        ToolTip.visible: hovered; ToolTip.text: "Remove"
                        onClicked: queue.remove(row.modelData.id)
                    }
                }
            }
        }
    }
}
