import QtQuick
import QtQuick.Templates as T
import "../../common"

// Something is under way: the app's one spinner (it steps on the shared clock).
T.BusyIndicator {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: contentItem.implicitWidth + leftPadding + rightPadding
    implicitHeight: contentItem.implicitHeight + topPadding + bottomPadding
    contentItem: Spinner { size: Math.min(control.availableWidth, control.availableHeight) || Theme.iconSize; visible: control.running }
}
