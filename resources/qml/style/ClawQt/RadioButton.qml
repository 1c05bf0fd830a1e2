import QtQuick
import QtQuick.Templates as T
import "../../common"

// One of several choices: a round box the size of a checkbox, an accent dot inside when chosen, a
// strong outline when not (the checkbox's look, round).
T.RadioButton {
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
        radius: width / 2
        color: Theme.surface
        border.width: control.checked ? 2 : 1
        border.color: control.checked ? Theme.accent : Theme.borderStrong
        Rectangle {
            anchors.centerIn: parent
            visible: control.checked
            width: parent.width / 2; height: width; radius: width / 2
            color: Theme.accent
        }
        FocusRing { control: control; radius: width / 2 }
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
