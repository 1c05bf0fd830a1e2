import QtQuick

// An icon (Icon.qml: Lucide, in a theme colour) with an optional label, for buttons' content.
Row {
    id: root
    property string icon: ""
    property string label: ""
    property color color: Theme.text
    property int iconSize: Theme.iconSize
    property alias labelFont: labelText.font  // e.g. `labelFont.pixelSize: Theme.fontCaption`
    spacing: Theme.spaceSmall
    Icon { icon: root.icon; size: root.iconSize; color: root.color; anchors.verticalCenter: parent.verticalCenter }
    Text { id: labelText; textFormat: Text.PlainText; text: root.label; color: root.color; anchors.verticalCenter: parent.verticalCenter
           visible: root.label !== "" }
}
