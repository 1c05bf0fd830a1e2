import QtQuick

// A round button's face (the composer's Send, Queue and Stop): a circle in `fill`, `fillHover` under the
// pointer or pressed, faded while it cannot be used, and the keyboard's ring around it.
Rectangle {
    required property var control
    property color fill: Theme.accent
    property color fillHover: Theme.accentHover
    property color edge: "transparent"
    radius: height / 2
    color: control.down || control.hovered ? fillHover : fill
    border.color: edge
    opacity: control.enabled ? 1 : 0.5
    Rectangle {  // the keyboard's ring, as the style draws it
        anchors.fill: parent
        anchors.margins: -Theme.focusOffset
        radius: height / 2
        color: "transparent"
        border.color: Theme.accent
        border.width: Theme.focusRing
        visible: parent.control.visualFocus
    }
}
