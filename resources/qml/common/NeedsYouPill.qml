import QtQuick
import QtQuick.Controls

// "Needs you" as an outlined amber pill: a chat row, a waiting permission or proposal, the same words and
// the same look wherever something waits for the user (the row or card around it says what).
Rectangle {
    radius: height / 2
    color: "transparent"
    border.color: Theme.warning
    implicitWidth: label.implicitWidth + Theme.pad
    implicitHeight: label.implicitHeight + Theme.spaceTight
    Accessible.ignored: true  // the row or card's own name says it
    Label { id: label; textFormat: Text.PlainText; anchors.centerIn: parent; text: "Needs you"
            font.pixelSize: Theme.fontCaption; font.weight: Font.DemiBold; color: Theme.warning }
}
