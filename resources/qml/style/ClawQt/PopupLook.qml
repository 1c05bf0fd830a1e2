import QtQuick
import "../../common"

// A surface above the window (a menu, a popup, a dialog, a list of choices): raised, a hairline edge,
// a soft shadow under it.
Rectangle {
    implicitWidth: Theme.filterWidth
    implicitHeight: Theme.controlHeight
    radius: Theme.radiusLarge
    color: Theme.raised
    border.width: 1
    border.color: Theme.border
    Shadow { level: 2; radius: parent.radius }
}
