import QtQuick

// The elevation cue under a raised surface: translucent rectangles offset below it, one per `level`
// (1: cards, 2: popups and dialogs). Offset rectangles rather than a blur: the same depth at no
// rendering cost, also under the software renderer. A child with z -1 is drawn under its parent.
Item {
    id: root
    property int level: 1
    property int radius: Theme.radius
    anchors.fill: parent
    z: -1
    Repeater {
        model: root.level
        Rectangle {
            required property int index
            anchors.fill: parent
            anchors.topMargin: index + 1
            anchors.bottomMargin: -(index + 1) * 2
            anchors.leftMargin: -index
            anchors.rightMargin: -index
            radius: root.radius + index + 1
            color: Theme.shadow
            opacity: 0.6 / (index + 1)
        }
    }
}
