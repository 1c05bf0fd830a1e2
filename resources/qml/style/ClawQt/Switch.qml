import QtQuick
import QtQuick.Templates as T
import "../../common"

// On or off: a pill track (accent when on) with a white knob that slides.
T.Switch {
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
        x: control.text ? (control.mirrored ? control.width - width - control.rightPadding : control.leftPadding)
                        : control.leftPadding + (control.availableWidth - width) / 2
        y: control.topPadding + (control.availableHeight - height) / 2
        implicitWidth: Theme.switchWidth
        implicitHeight: Theme.switchHeight
        radius: height / 2
        color: control.checked ? Theme.accent : Theme.borderStrong
        opacity: control.enabled ? 1 : 0.5
        Behavior on color { ColorAnimation { duration: Theme.motionFast } }
        Rectangle {
            width: Theme.switchKnob
            height: Theme.switchKnob
            radius: width / 2
            y: (parent.height - height) / 2
            x: control.checked ? parent.width - width - y : y
            color: Theme.textOnAccent
            border.width: 1
            border.color: Theme.shadow
            Behavior on x { NumberAnimation { duration: Theme.motionFast; easing.type: Easing.OutCubic } }
        }
        FocusRing { control: control; radius: height / 2 + Theme.focusOffset }
    }
    contentItem: Text {
        leftPadding: control.indicator && !control.mirrored ? control.indicator.width + control.spacing : 0
        rightPadding: control.indicator && control.mirrored ? control.indicator.width + control.spacing : 0
        textFormat: Text.PlainText
        text: control.text
        font: control.font
        color: control.enabled ? Theme.text : Theme.disabled
        verticalAlignment: Text.AlignVCenter
        elide: Text.ElideRight
    }
}
