import QtQuick
import QtQuick.Controls
import "../common"

// A sidebar row's action shown under the pointer: an icon, its words in a tooltip and for screen readers.
ToolButton {
    id: action
    property string iconName: ""
    property string tip: ""
    flat: true
    padding: Theme.spaceHair
    focusPolicy: Qt.NoFocus  // the row keeps the keyboard: F2, Delete and the menu key reach these too
    contentItem: Icon { icon: action.iconName; size: Theme.iconMedium; color: action.hovered ? Theme.text : Theme.muted }
    Accessible.name: tip
    PlainToolTip { visible: action.hovered; text: action.tip }
}
