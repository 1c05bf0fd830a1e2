import QtQuick
import QtQuick.Templates as T
import "../../common"

// One entry of a menu: the hover tint under the pointer or the keyboard, a check when it is checkable.
T.MenuItem {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding)
    verticalPadding: Theme.spaceTight
    leftPadding: Theme.gap + (checkable ? Theme.iconSize + Theme.spaceSmall : 0)
    rightPadding: Theme.gap
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
    indicator: Icon {
        x: Theme.gap
        y: (control.height - height) / 2
        visible: control.checked
        icon: "check"
        color: Theme.text2
    }
    background: Rectangle {
        implicitWidth: Theme.menuWidth
        implicitHeight: Theme.controlSmall
        radius: Theme.radiusControl
        color: control.highlighted || control.down ? Theme.hover : "transparent"
    }
}
