import QtQuick
import "../../common"

// What every button stands on, by its variant: primary (`highlighted`) an accent fill, ghost (`flat`,
// a ToolButton) nothing until hovered, secondary (the rest) a surface with a strong border,
// danger (common/DangerButton.qml) that with a danger edge. Pressed and
// toggled look `selected`; hover lays the `hover` tint over the fill.
Rectangle {
    id: look
    required property var control  // the button (AbstractButton: down, hovered, checked, flat...)
    readonly property bool primary: control.highlighted === true
    property bool ghost: control.flat === true  // a tab, which has no `flat`, says so itself
    readonly property bool danger: control.danger === true  // common/DangerButton.qml
    implicitWidth: Theme.controlHeight
    implicitHeight: Theme.controlHeight
    radius: Theme.radiusControl
    color: primary ? (control.down || control.hovered ? Theme.accentHover : Theme.accent)
                   : ghost ? "transparent" : Theme.surface
    border.width: primary || ghost ? 0 : 1
    border.color: !control.enabled ? Theme.border : danger ? Theme.dangerBorder : Theme.borderStrong
    opacity: primary && !control.enabled ? 0.5 : 1
    Rectangle {  // the state tint over the fill
        anchors.fill: parent
        radius: parent.radius
        visible: !look.primary
        color: look.control.down || look.control.checked ? Theme.selected
             : look.control.hovered && look.control.enabled ? (look.danger ? Theme.dangerSubtle : Theme.hover)
             : "transparent"
        Behavior on color { ColorAnimation { duration: Theme.motionFast } }
    }
    FocusRing { control: look.control }
}
