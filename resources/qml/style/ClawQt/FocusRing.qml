import QtQuick
import "../../common"

// The keyboard's mark: an accent ring just outside a control, shown on keyboard focus only (a click
// gives focus too, and a ring after every click is noise).
Rectangle {
    property Item control: parent
    anchors.fill: parent
    anchors.margins: -Theme.focusOffset
    radius: Theme.radiusControl + Theme.focusOffset
    color: "transparent"
    border.color: Theme.accent
    border.width: Theme.focusRing
    visible: control.visualFocus
}
