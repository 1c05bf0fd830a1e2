import QtQuick
import QtQuick.Templates as T
import "../../common"

// A hairline between groups of a menu.
T.MenuSeparator {
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding)
    verticalPadding: Theme.spaceTight
    contentItem: Rectangle { implicitHeight: 1; color: Theme.border }
}
