import QtQuick
import QtQuick.Templates as T
import "../../common"

// Panes side by side: a hairline between them with a wider grab area, accent while dragged.
T.SplitView {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding)
    handle: Item {
        implicitWidth: control.orientation === Qt.Horizontal ? Theme.splitGrab : control.width
        implicitHeight: control.orientation === Qt.Horizontal ? control.height : Theme.splitGrab
        Rectangle {
            anchors.centerIn: parent
            width: control.orientation === Qt.Horizontal ? (parent.T.SplitHandle.pressed ? Theme.focusRing : 1) : parent.width
            height: control.orientation === Qt.Horizontal ? parent.height : (parent.T.SplitHandle.pressed ? Theme.focusRing : 1)
            color: parent.T.SplitHandle.pressed || parent.T.SplitHandle.hovered ? Theme.accent : Theme.border
        }
    }
}
