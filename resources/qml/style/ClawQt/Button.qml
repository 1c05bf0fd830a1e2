import QtQuick
import QtQuick.Templates as T
import "../../common"

// The app's button: secondary by default, primary with `highlighted: true`, ghost with `flat: true`.
T.Button {
    id: control
    readonly property string designStyle: "ClawQt"  // tests/ui/window/test_style.py looks for it
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding)
    verticalPadding: Theme.spaceTight
    horizontalPadding: Theme.pad
    spacing: Theme.spaceSmall
    font.pixelSize: Theme.fontUi
    font.weight: Font.Medium
    palette.buttonText: highlighted ? Theme.textOnAccent : Theme.text
    contentItem: ButtonLabel { control: control }
    background: ButtonLook { control: control }
}
