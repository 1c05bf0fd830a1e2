import QtQuick
import "../../common"

// Where text is typed: a surface with a strong border that turns accent, with a soft accent halo,
// while the field has the keyboard.
Rectangle {
    id: look
    required property var control
    implicitWidth: Theme.filterWidth
    implicitHeight: Theme.controlHeight
    radius: Theme.radiusControl
    color: control.enabled ? Theme.surface : Theme.sunken
    border.width: 1
    border.color: control.activeFocus ? Theme.accent : Theme.borderStrong
    Rectangle {  // the halo of a focused field
        anchors.fill: parent
        anchors.margins: -Theme.focusHalo
        radius: parent.radius + Theme.focusHalo
        color: "transparent"
        border.width: Theme.focusHalo
        border.color: Theme.accentSubtle
        visible: look.control.activeFocus
        z: -1
    }
}
