import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// Attachment cards lifted after the prose: the name, then the muted, truncated path.
Item {
    id: root
    required property var payload
    property bool user: payload.kind === "user-attachments"
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: flow.implicitHeight + 8

    TurnGutter { visible: !root.user; first: root.payload.first; height: parent.height }
    Flow {
        id: flow
        x: root.user ? Theme.pad : 44; y: 4
        width: root.width - x - Theme.pad
        layoutDirection: root.user ? Qt.RightToLeft : Qt.LeftToRight
        spacing: Theme.gap
        Repeater {
            model: root.payload.attachments
            Button {
                required property var modelData
                enabled: modelData.status !== "unavailable"
                width: Math.min(flow.width, 320)
                contentItem: ColumnLayout {
                    spacing: 0
                    Text { text: modelData.name + (modelData.source === "media-directive" ? "  (MEDIA)" : "")
                           font.bold: true; color: Theme.text; elide: Text.ElideMiddle; Layout.fillWidth: true }
                    Text { visible: modelData.status !== "unavailable"; text: modelData.uri; color: Theme.muted
                           font.pixelSize: 11; elide: Text.ElideMiddle; Layout.fillWidth: true }
                }
                Accessible.name: "Attachment " + modelData.name
                onClicked: controller.openLink(modelData.uri)
            }
        }
    }
}
