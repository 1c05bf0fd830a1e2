import QtQuick
import QtQuick.Layouts

// A menu entry's text with its keyboard shortcut at the right, muted (as desktop menus show them).
RowLayout {
    property string label: ""
    property string keys: ""
    spacing: Theme.pad
    Text { textFormat: Text.PlainText; text: parent.label; color: parent.enabled ? Theme.text : Theme.disabled; Layout.fillWidth: true }
    Text { textFormat: Text.PlainText; text: parent.keys; color: Theme.muted; font.pixelSize: Theme.fontSmall }
}
