import QtQuick
import QtQuick.Templates as T
import "../../common"

// A bar of controls along a window's edge, on the canvas, a hairline under it.
T.ToolBar {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding)
    font.pixelSize: Theme.fontUi
    background: Rectangle {
        implicitHeight: Theme.controlHeight
        color: Theme.canvas
        Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.border }
    }
}
