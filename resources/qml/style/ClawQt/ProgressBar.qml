import QtQuick
import QtQuick.Templates as T
import "../../common"

// How far something is: a thin rounded track with an accent fill.
T.ProgressBar {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding)
    contentItem: Item {
        implicitWidth: Theme.filterWidth
        implicitHeight: Theme.progressHeight
        Rectangle {
            width: control.indeterminate ? parent.width / 3 : control.visualPosition * parent.width
            height: parent.height
            radius: height / 2
            color: Theme.accent
        }
    }
    background: Rectangle {
        implicitWidth: Theme.filterWidth
        implicitHeight: Theme.progressHeight
        y: (control.height - height) / 2
        height: Theme.progressHeight
        radius: height / 2
        color: Theme.border
    }
}
