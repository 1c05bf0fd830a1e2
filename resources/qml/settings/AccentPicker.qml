import QtQuick
import QtQuick.Layouts
import "../common"

// The accent the user picks (Settings, Appearance): a round swatch for each, in the theme's own value
// of it, the chosen one ringed. The arrow keys move the choice once Tab has reached it.
FocusScope {
    id: root
    property var choices: []  // [{value, label}] (settings.accents)
    property string value: ""
    signal chosen(string value)
    readonly property int current: choices.findIndex(choice => choice.value === value)
    activeFocusOnTab: true
    implicitWidth: row.implicitWidth
    implicitHeight: row.implicitHeight
    Accessible.role: Accessible.List
    function move(step) {
        const next = Math.max(0, Math.min(choices.length - 1, current + step))
        if (next !== current) chosen(choices[next].value)
    }
    Keys.onRightPressed: move(1)
    Keys.onDownPressed: move(1)
    Keys.onLeftPressed: move(-1)
    Keys.onUpPressed: move(-1)

    Row {
        id: row
        spacing: Theme.gap
        Repeater {
            model: root.choices
            Item {
                id: swatch
                required property var modelData
                required property int index
                readonly property bool chosen: index === root.current
                objectName: "accent_" + modelData.value
                width: Theme.controlHeight; height: Theme.controlHeight
                Accessible.role: Accessible.RadioButton
                Accessible.name: modelData.label
                Accessible.checked: chosen
                Rectangle {  // the ring: around the chosen one, and the keyboard's mark while it is there
                    anchors.fill: parent
                    radius: width / 2
                    color: "transparent"
                    border.width: Theme.focusRing
                    border.color: swatch.chosen ? (root.activeFocus ? Theme.accent : Theme.borderStrong)
                                                : "transparent"
                }
                Rectangle {
                    anchors.centerIn: parent
                    width: parent.width - 3 * Theme.focusRing; height: width
                    radius: width / 2
                    color: Theme["accent" + swatch.modelData.label]
                }
                TapHandler {
                    onTapped: { root.forceActiveFocus(Qt.MouseFocusReason); root.chosen(swatch.modelData.value) }
                }
                HoverHandler { cursorShape: Qt.PointingHandCursor }
                PlainToolTip { visible: tipHover.hovered; text: swatch.modelData.label }
                HoverHandler { id: tipHover }
            }
        }
    }
}
