import QtQuick
import QtQuick.Templates as T
import "../../common"

// A button inside a bar or a card: ghost (no fill until hovered), toggled when `checked`.
T.ToolButton {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding)
    flat: true
    verticalPadding: Theme.spaceTight
    horizontalPadding: Theme.gap
    spacing: Theme.spaceSmall
    font.pixelSize: Theme.fontUi
    font.weight: Font.Medium
    palette.buttonText: Theme.text
    contentItem: ButtonLabel { control: control }
    background: ButtonLook { control: control; implicitWidth: Theme.controlSmall; implicitHeight: Theme.controlSmall }
}
