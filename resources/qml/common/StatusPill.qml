import QtQuick

// A call's state as a small outlined pill: an icon and a word in the state's colour (the word alone
// relied on colour and reading; the icon tells running, done, failed and cancelled apart at a glance).
Rectangle {  // implicit sizes: in a layout, a plain width is overridden and the pill overflowed
    id: pill
    property string status: ""
    property string label: ""
    readonly property color tone: Theme.statusColor(status)
    radius: height / 2
    implicitHeight: content.implicitHeight + Theme.spaceHair * 2
    implicitWidth: content.implicitWidth + 2 * Theme.spaceSmall
    color: "transparent"
    border.color: tone
    IconLabel {
        id: content
        anchors.centerIn: parent
        spacing: Theme.spaceTight
        icon: Theme.statusIcon(pill.status)
        iconSize: Theme.fontCaption
        label: pill.label
        labelFont.pixelSize: Theme.fontCaption
        color: pill.tone
    }
}
