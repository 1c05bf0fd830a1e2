import QtQuick
import QtQuick.Templates as T
import "../../common"

// A thin thumb over the content, no track; wider under the pointer, gone when the content rests.
T.ScrollBar {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding)
    padding: Theme.spaceHair
    visible: policy !== T.ScrollBar.AlwaysOff
    minimumSize: orientation === Qt.Horizontal ? height / width : width / height
    contentItem: Rectangle {
        implicitWidth: control.interactive && (control.hovered || control.pressed) ? Theme.scrollBarWide : Theme.scrollBar
        implicitHeight: implicitWidth
        radius: width / 2
        color: Theme.text
        opacity: control.policy === T.ScrollBar.AlwaysOn || (control.active && control.size < 1.0)
                 ? (control.pressed || control.hovered ? 0.35 : 0.2) : 0
        Behavior on opacity { NumberAnimation { duration: Theme.motionMedium } }
    }
}
