import QtQuick
import QtQuick.Templates as T
import "../../common"

// A short explanation on hover: dark in both themes, small, after a short pause.
T.ToolTip {
    id: control
    readonly property string designStyle: "ClawQt"
    x: parent ? (parent.width - implicitWidth) / 2 : 0
    y: -implicitHeight - Theme.spaceTight
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            contentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             contentHeight + topPadding + bottomPadding)
    margins: Theme.gap
    verticalPadding: Theme.spaceTight
    horizontalPadding: Theme.gap
    delay: Theme.tooltipDelay
    font.pixelSize: Theme.fontSmall
    closePolicy: T.Popup.CloseOnEscape | T.Popup.CloseOnPressOutsideParent | T.Popup.CloseOnReleaseOutsideParent
    contentItem: Text {
        textFormat: Text.PlainText
        text: control.text
        font: control.font
        wrapMode: Text.Wrap
        color: Theme.tooltipText
    }
    background: Rectangle { radius: Theme.radiusControl; color: Theme.tooltip }
}
