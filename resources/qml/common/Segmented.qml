import QtQuick
import QtQuick.Layouts

// A few exclusive choices side by side (System / Light / Dark): all of them in view, one click to
// change, instead of a list that hides the others. The keyboard moves the choice with the arrow keys
// once Tab has reached it (a ring says so).
FocusScope {
    id: root
    property var choices: []  // [{value, label}]
    property string value: ""
    signal chosen(string value)
    readonly property int current: choices.findIndex(choice => choice.value === value)
    activeFocusOnTab: true
    implicitWidth: row.implicitWidth + 2 * Theme.spaceHair
    implicitHeight: Theme.controlHeight
    Accessible.role: Accessible.List
    function move(step) {
        const next = Math.max(0, Math.min(choices.length - 1, current + step))
        if (next !== current) chosen(choices[next].value)
    }
    Keys.onRightPressed: move(1)
    Keys.onDownPressed: move(1)
    Keys.onLeftPressed: move(-1)
    Keys.onUpPressed: move(-1)

    Rectangle {  // the track
        anchors.fill: parent
        radius: Theme.radiusControl
        color: Theme.sunken
        border.color: Theme.border
    }
    Row {
        id: row
        x: Theme.spaceHair; y: Theme.spaceHair
        height: root.height - 2 * Theme.spaceHair
        Repeater {
            model: root.choices
            Rectangle {  // a choice: the chosen one raised on the track
                id: segment
                required property var modelData
                required property int index
                readonly property bool chosen: index === root.current
                objectName: "segment_" + modelData.value
                width: Math.max(label.implicitWidth + 2 * Theme.pad, (root.width - 2 * Theme.spaceHair) / root.choices.length)
                height: row.height
                radius: Theme.radiusControl - Theme.spaceHair
                color: chosen ? Theme.surface : hover.hovered ? Theme.hover : "transparent"
                border.color: chosen ? Theme.borderStrong : "transparent"
                Accessible.role: Accessible.RadioButton
                Accessible.name: modelData.label
                Accessible.checked: chosen
                Text {
                    id: label
                    anchors.centerIn: parent
                    textFormat: Text.PlainText
                    text: segment.modelData.label
                    font.pixelSize: Theme.fontUi
                    font.weight: segment.chosen ? Font.DemiBold : Font.Normal
                    color: segment.chosen ? Theme.text : Theme.text2
                }
                HoverHandler { id: hover }
                TapHandler { onTapped: root.chosen(segment.modelData.value) }
            }
        }
    }
    Rectangle {  // the keyboard's ring, as the style draws it around a control
        anchors.fill: parent
        anchors.margins: -Theme.focusOffset
        radius: Theme.radiusControl + Theme.focusOffset
        color: "transparent"
        border.color: Theme.accent
        border.width: Theme.focusRing
        visible: root.activeFocus
    }
}
