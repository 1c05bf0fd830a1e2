import QtQuick
import QtQuick.Templates as T
import "../../common"

// A row of a list (a choice, a chat): no fill at rest, the hover tint under the pointer, `selected`
// when current (`highlighted`); never a blue band.
T.ItemDelegate {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding)
    verticalPadding: Theme.spaceSmall
    horizontalPadding: Theme.spaceField
    spacing: Theme.gap
    font.pixelSize: Theme.fontUi
    palette.highlightedText: Theme.text
    contentItem: Text {
        textFormat: Text.PlainText
        text: control.text
        font: control.font
        color: control.enabled ? Theme.text : Theme.disabled
        verticalAlignment: Text.AlignVCenter
        elide: Text.ElideRight
    }
    background: Rectangle {
        implicitHeight: Theme.controlHeight
        radius: Theme.radiusControl
        color: control.highlighted || control.down ? Theme.selected
             : control.hovered ? Theme.hover : "transparent"
        FocusRing { control: control }
    }
}
