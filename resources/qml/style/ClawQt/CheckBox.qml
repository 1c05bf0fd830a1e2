import QtQuick
import QtQuick.Templates as T
import "../../common"

// A box that is ticked: accent with a white check when on, a strong outline when off.
T.CheckBox {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding,
                             implicitIndicatorHeight + topPadding + bottomPadding)
    padding: Theme.spaceTight
    spacing: Theme.gap
    font.pixelSize: Theme.fontUi
    indicator: Rectangle {
        x: control.leftPadding
        y: control.topPadding + (control.availableHeight - height) / 2
        implicitWidth: Theme.checkSize
        implicitHeight: Theme.checkSize
        radius: Theme.radiusSmall
        color: control.checked ? Theme.accent : Theme.surface
        border.width: control.checked ? 0 : 1
        border.color: Theme.borderStrong
        Icon {
            anchors.centerIn: parent
            visible: control.checked
            icon: "check"
            size: Theme.iconSmall
            color: Theme.textOnAccent
        }
        FocusRing { control: control; radius: Theme.radiusSmall + Theme.focusOffset }
    }
    contentItem: Text {
        leftPadding: control.indicator.width + control.spacing
        textFormat: Text.PlainText
        text: control.text
        font: control.font
        color: control.enabled ? Theme.text : Theme.disabled
        verticalAlignment: Text.AlignVCenter
        elide: Text.ElideRight
    }
}
