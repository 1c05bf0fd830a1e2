import QtQuick

// The key that does it, drawn as a key cap beside a button's words (a permission's 1-9, the review's
// Y and U). Empty: nothing is drawn.
Rectangle {
    id: cap
    property string key: ""
    property color textColor: Theme.text
    property bool onAccent: false  // on a primary button: a lighter edge
    visible: key !== ""
    implicitWidth: Math.max(implicitHeight, keyText.implicitWidth + Theme.spaceSmall)
    implicitHeight: keyText.implicitHeight + Theme.spaceHair * 2
    radius: Theme.radiusSmall
    color: "transparent"
    border.color: onAccent ? Theme.textOnAccent : Theme.border
    opacity: onAccent ? 0.7 : 1
    Text { id: keyText; anchors.centerIn: parent; textFormat: Text.PlainText; text: cap.key
           font.pixelSize: Theme.fontCaption; color: cap.textColor }
}
