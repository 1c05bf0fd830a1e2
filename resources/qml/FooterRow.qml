import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// The end of an assistant turn: timing and the one copy action of the turn.
Item {
    id: root
    required property var payload
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: 30
    RowLayout {
        x: 44; y: 2
        width: root.width - x - Theme.pad
        ToolButton {
            id: copy
            property bool copied: false
            text: copied ? "Copied" : "Copy"
            font.pixelSize: 11
            Accessible.name: "Copy the agent's reply"
            onClicked: { controller.copyTurn(root.payload.groupId); copied = true }
        }
        Text { text: root.payload.timing || ""; color: Theme.muted; font.pixelSize: 11 }
        Item { Layout.fillWidth: true }
    }
}
