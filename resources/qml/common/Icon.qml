import QtQuick

// One Lucide icon in a theme colour, drawn by the app (app/renderer/qt/common/icon_images.py): 16 px
// beside a label, 14 inside small controls, 12 for a picker's chevron. `icon: ""` draws nothing.
Image {
    id: root
    property string icon: ""
    property color color: Theme.text2
    property int size: Theme.iconSize
    width: size
    height: size
    sourceSize: Qt.size(size, size)
    source: icon === "" ? "" : "image://icon/" + icon + "?c=" + String(color).slice(1)
    fillMode: Image.PreserveAspectFit
    visible: icon !== ""
}
