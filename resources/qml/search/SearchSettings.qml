import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Settings' search section: how big the index of every chat is, and its bound. Past the bound the chats
// changed longest ago are forgotten first (their words come back when they are shown again); the index
// is a cache of the chats, never the chats themselves.
ColumnLayout {
    id: root
    property Item next: null  // where Tab goes after the bound
    property alias first: limitField  // where Tab comes in
    spacing: Theme.gap
    Component.onCompleted: searchAll.readSize()
    onVisibleChanged: if (visible) searchAll.readSize()

    Label {
        objectName: "settingsSection_Search"
        textFormat: Text.PlainText
        text: "Search"
        font.weight: Font.DemiBold; font.pixelSize: Theme.fontTitle
        color: Theme.text
        Accessible.role: Accessible.Heading
        Layout.topMargin: Theme.pad
    }
    Label {
        objectName: "searchIndexSize"
        textFormat: Text.PlainText
        text: "The index of every chat (Ctrl+Shift+F): " + (searchAll.indexSize || "\u2026")
        color: Theme.muted; font.pixelSize: Theme.fontSmall
        wrapMode: Text.Wrap; Layout.fillWidth: true
    }
    RowLayout {
        spacing: Theme.gap
        Layout.fillWidth: true
        Label { textFormat: Text.PlainText; text: "Keep it under"; color: Theme.text }
        TextField {
            id: limitField
            objectName: "searchIndexLimit"
            text: String(searchAll.indexLimit)
            inputMethodHints: Qt.ImhDigitsOnly
            validator: IntValidator { bottom: 1; top: 1000000 }
            Layout.preferredWidth: 120
            onEditingFinished: searchAll.setIndexLimit(parseInt(text))
            KeyNavigation.tab: root.next
            Accessible.name: "The search index's size at most, in megabytes: " + text
        }
        Label { textFormat: Text.PlainText; text: "MB (past it the oldest chats are forgotten; shown again, they are found again)"
                color: Theme.muted; font.pixelSize: Theme.fontSmall; wrapMode: Text.Wrap; Layout.fillWidth: true }
    }
    Label {
        objectName: "searchIndexProblem"
        visible: text !== ""
        textFormat: Text.PlainText
        text: searchAll.indexLimitProblem
        color: Theme.danger; wrapMode: Text.Wrap; Layout.fillWidth: true
    }
}
