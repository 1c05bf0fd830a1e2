import QtQuick

// An icon glyph (from the app's icon font) with an optional label, for buttons' content.
Row {
    id: root
    property string icon: ""
    property string label: ""
    property color color: Theme.text
    property int iconSize: Theme.iconSize
    property alias labelFont: labelText.font  // e.g. `labelFont.pixelSize: Theme.fontCaption`
    spacing: Theme.spaceSmall
    Text { textFormat: Text.PlainText; text: icons.glyph(root.icon); font.family: icons.family; font.pixelSize: root.iconSize
           color: root.color; anchors.verticalCenter: parent.verticalCenter; visible: root.icon !== "" }
    Text { id: labelText; textFormat: Text.PlainText; text: root.label; color: root.color; anchors.verticalCenter: parent.verticalCenter
           visible: root.label !== "" }
}
