import QtQuick

// The elevation cue under a raised surface: translucent rectangles offset below it, one per `level`
// (1: cards, 2: popups and dialogs). Offset rectangles rather than a blur: the same depth at no
// rendering cost, also under the software renderer. Two plain rectangles rather than a Repeater: cards
// are delegates, made again as the conversation scrolls. A child with z -1 is drawn under its parent.
Item {
    id: root
    property int level: 1
    property int radius: Theme.radius
    anchors.fill: parent
    z: -1
    Rectangle {
        anchors.fill: parent
        anchors.topMargin: Theme.shadowStep
        anchors.bottomMargin: -Theme.shadowStep * 2
        radius: root.radius + Theme.shadowStep
        color: Theme.shadow
        opacity: 0.6
    }
    Rectangle {
        visible: root.level > 1
        anchors.fill: parent
        anchors.topMargin: Theme.shadowStep * 2
        anchors.bottomMargin: -Theme.shadowStep * 4
        anchors.leftMargin: -Theme.shadowStep
        anchors.rightMargin: -Theme.shadowStep
        radius: root.radius + 2 * Theme.shadowStep
        color: Theme.shadow
        opacity: 0.3
    }
}
