import QtQuick

// A raised surface for a popup's or dialog's background: its colour and border over a Shadow.
Rectangle {
    property int level: 2
    color: level > 1 ? Theme.raised : Theme.surface
    border.color: Theme.border
    radius: Theme.radius
    Shadow { level: parent.level; radius: parent.radius }
}
