import QtQuick
import QtQuick.Layouts

// One assistant text segment (the agent's prose), left-aligned under the turn's identity column.
Item {
    id: root
    required property var payload
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: column.implicitHeight + 8

    TurnGutter { first: root.payload.first; height: parent.height }
    ColumnLayout {
        id: column
        x: 44; y: 4
        width: root.width - x - Theme.pad
        TextBlocks { Layout.fillWidth: true; blocks: root.payload.blocks || [] }
        Repeater {
            model: root.payload.errors || []
            Text { required property var modelData; text: modelData; color: Theme.danger; wrapMode: Text.Wrap
                   Layout.fillWidth: true }
        }
        Repeater {
            model: root.payload.images || []
            Image { required property var modelData; source: modelData; fillMode: Image.PreserveAspectFit
                    Layout.maximumWidth: 480; Layout.maximumHeight: 360; asynchronous: true }
        }
    }
}
