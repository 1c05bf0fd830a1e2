import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Under an empty chat's composer: the last few chats, one click away (the sidebar's first rows, the ones
// that need the user first), so a new window is a place to pick up work as well as to start it.
ColumnLayout {
    id: root
    objectName: "recentChats"
    spacing: Theme.spaceHair
    readonly property bool hasChats: recent.count > 0
    Text {
        textFormat: Text.PlainText
        text: "Recent chats"
        font.pixelSize: Theme.fontCaption
        font.weight: Font.Medium
        color: Theme.muted
        leftPadding: Theme.spaceField
        Layout.bottomMargin: Theme.spaceTight
    }
    Repeater {
        id: recent
        model: sessions.recent  // the first rows of the sidebar, the chat shown left out
        ItemDelegate {
            id: entry
            required property var modelData
            required property int index
            objectName: "recentChat_" + index
            Layout.fillWidth: true
            Accessible.name: "Open the chat " + modelData.title + (modelData.needsYou ? ", needs you" : "")
            background: Rectangle { radius: Theme.radiusSmall; color: entry.hovered ? Theme.hover : "transparent"
                                    border.color: entry.visualFocus ? Theme.accent : "transparent" }
            contentItem: RowLayout {
                spacing: Theme.gap
                Icon { icon: entry.modelData.needsYou ? "shield-alert" : "message-square"; size: Theme.iconMedium
                       color: entry.modelData.needsYou ? Theme.warning : Theme.muted }
                Label { objectName: "recentChatTitle"; textFormat: Text.PlainText; text: entry.modelData.title; elide: Text.ElideRight
                        Layout.fillWidth: true; color: Theme.text2 }
                Label { textFormat: Text.PlainText; text: entry.modelData.needsYou ? "Needs you" : entry.modelData.when || ""
                        font.pixelSize: Theme.fontCaption; color: entry.modelData.needsYou ? Theme.warning : Theme.muted }
            }
            onClicked: session.openSession(modelData.key)
        }
    }
}
