import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// Attachment cards lifted after the prose: the name, then the muted, truncated path.
Item {
    id: root
    required property string kind
    required property var cards
    required property bool first
    readonly property bool user: kind === "user-attachments"
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: flow.implicitHeight + 8

    TurnGutter { visible: !root.user; first: root.first; height: parent.height }
    Flow {
        id: flow
        x: root.user ? Theme.pad : 44; y: 4
        width: root.width - x - Theme.pad
        layoutDirection: root.user ? Qt.RightToLeft : Qt.LeftToRight
        spacing: Theme.gap
        Repeater {
            model: root.cards
            Button {  // Enter/Space activate it like a click; the name is what a screen reader says
                id: card
                required property var modelData
                objectName: "attachmentCard"
                readonly property bool local: modelData.kind === "file" || modelData.kind === "directory"
                enabled: modelData.status !== "unavailable"
                width: Math.min(flow.width, 340)
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
                               color: Theme.muted; font.pixelSize: 11; elide: Text.ElideMiddle
                               Layout.fillWidth: true; textFormat: Text.PlainText }
                        Text { visible: card.modelData.status === "unavailable"; text: "unavailable"
                               color: Theme.muted; font.pixelSize: 11 }
                    }
                    ToolButton {
                        objectName: "openWithButton"
                        visible: card.local && card.modelData.status === "available"
                        text: "Open with\u2026"; font.pixelSize: 11
                        onClicked: attachments.openExternally(card.modelData.uri)
                        Accessible.name: "Open " + card.modelData.name + " with the system application"
                    }
                }
                Accessible.name: "Attachment " + modelData.name + (modelData.status === "unavailable"
                                 ? ", unavailable: " + modelData.reason : "")
                ToolTip.visible: hovered
                ToolTip.text: modelData.status === "unavailable" ? (modelData.reason || "") : modelData.name
                onClicked: attachments.activate(modelData.uri)
            }
        }
    }
}
