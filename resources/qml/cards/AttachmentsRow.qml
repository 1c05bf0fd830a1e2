import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"
import "../conversation"

// Attachment cards lifted after the prose: the name, then the muted, truncated path. A card is a frame
// holding two sibling buttons (the card itself and "Open with..."), never a button inside a button.
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property string kind
    required property var cards
    required property bool first
    readonly property bool user: kind === "user-attachments"
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: turnHeader.extra + flow.implicitHeight + Theme.gap

    TurnHeader { id: turnHeader; objects: root.objects; first: root.first && !root.user }
    Flow {
        id: flow
        x: Theme.columnX(root.width); y: Theme.spaceTight + turnHeader.extra
        width: Theme.columnWidth(root.width)
        layoutDirection: root.user ? Qt.RightToLeft : Qt.LeftToRight
        spacing: Theme.gap
        Repeater {
            model: root.cards
            Rectangle {  // the card's frame: the card button and, beside it (never inside), "Open with..."
                id: frame
                required property var modelData
                objectName: "attachmentCardFrame"
                readonly property bool available: modelData.status === "available"
                // "Open with..." only on the agent's files that are available; a folder opens on its click
                readonly property bool openWith: !root.user && available && modelData.kind === "file"
                width: Math.min(flow.width, 340)
                implicitHeight: cardRow.implicitHeight
                radius: Theme.radius
                color: card.down ? Theme.border : Theme.surface
                border.color: card.activeFocus || openButton.activeFocus ? Theme.accent : Theme.border
                RowLayout {
                    id: cardRow
                    anchors { left: parent.left; right: parent.right }
                    spacing: 0
                    Button {  // Enter/Space activate it like a click; the name is what a screen reader says
                        id: card
                        objectName: "attachmentCard"
                        readonly property var modelData: frame.modelData
                        readonly property bool local: modelData.kind === "file" || modelData.kind === "directory"
                        // pending ("checking...") and unavailable cards do nothing
                        enabled: frame.available
                        flat: true
                        Layout.fillWidth: true
                        background: Item {}
                        contentItem: RowLayout {
                            Image {  // a thumbnail for image files (made by Pillow off the GUI thread)
                                objectName: "cardThumbnail"
                                visible: !!card.modelData.thumbnail
                                source: card.modelData.thumbnail || ""
                                Layout.preferredWidth: 48; Layout.preferredHeight: 48
                                fillMode: Image.PreserveAspectFit; cache: false
                            }
                            ColumnLayout {
                                spacing: 0
                                Layout.fillWidth: true
                                Text { text: card.modelData.name + (card.modelData.source.indexOf("media-") === 0 ? "  (MEDIA)" : "")
                                       font.bold: true; color: card.enabled ? Theme.text : Theme.muted
                                       elide: Text.ElideMiddle; Layout.fillWidth: true; textFormat: Text.PlainText }
                                Text { visible: card.modelData.status !== "unavailable"  // unavailable: the name only
                                       text: card.modelData.status === "pending" ? "checking\u2026"
                                             : card.modelData.path + (card.modelData.outside ? "  (outside the workspace)" : "")
                                       color: Theme.muted; font.pixelSize: Theme.fontCaption; elide: Text.ElideMiddle
                                       Layout.fillWidth: true; textFormat: Text.PlainText }
                                Text { textFormat: Text.PlainText; visible: card.modelData.status === "unavailable"; text: "unavailable"
                                       color: Theme.muted; font.pixelSize: Theme.fontCaption }
                            }
                        }
                        Accessible.name: "Attachment " + modelData.name + (modelData.status === "unavailable"
                                         ? ", unavailable: " + modelData.reason
                                         : modelData.status === "pending" ? ", checking" : "")
                        PlainToolTip { visible: parent.hovered; text: modelData.status === "unavailable" ? (modelData.reason || "") : modelData.name }
                        onClicked: root.objects.attachments.activate(modelData.uri)
                    }
                    ToolButton {  // a sibling of the card button: Tab reaches it after the card
                        id: openButton
                        objectName: "openWithButton"
                        visible: frame.openWith
                        contentItem: IconLabel { icon: "external-link"; label: "Open with\u2026"; color: Theme.text
                                                 iconSize: Theme.fontSmall; labelFont.pixelSize: Theme.fontCaption }
                        onClicked: root.objects.attachments.openWith(frame.modelData.uri)
                        Accessible.name: "Open " + frame.modelData.name + " with an application you choose"
                        ToolTip.visible: hovered
                        ToolTip.text: "Choose the application (the default one where the desktop offers no choice)"
                    }
                    ToolButton {  // another sibling: Tab reaches it after "Open with..."
                        objectName: "showInFolderButton"
                        visible: frame.openWith
                        contentItem: IconLabel { icon: "folder"; color: Theme.text; iconSize: Theme.fontSmall }
                        onClicked: root.objects.attachments.showInFolder(frame.modelData.uri)
                        Accessible.name: "Show " + frame.modelData.name + " in its folder"
                        ToolTip.visible: hovered
                        ToolTip.text: "Show in folder"
                    }
                }
            }
        }
    }
}
