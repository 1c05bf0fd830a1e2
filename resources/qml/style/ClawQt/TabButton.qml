import QtQuick
import QtQuick.Templates as T
import "../../common"

// One tab: a ghost button, `selected` when it is the current one.
T.TabButton {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset, implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset, implicitContentHeight + topPadding + bottomPadding)
    verticalPadding: Theme.spaceTight
    horizontalPadding: Theme.pad
    font.pixelSize: Theme.fontUi
    font.weight: Font.Medium
    contentItem: ButtonLabel { control: control }
    background: ButtonLook { control: control; ghost: true; implicitHeight: Theme.controlSmall }
}
