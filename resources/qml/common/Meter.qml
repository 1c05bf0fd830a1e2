import QtQuick
import QtQuick.Controls

// A slim progress meter (a plan's progress, the context used): a track and a fill in the accent, or in
// `fillColour`; the Fusion bar was a thick bright block that outweighed the text beside it.
ProgressBar {
    id: meter
    property color fillColour: Theme.accent
    implicitHeight: Theme.spaceSmall
    background: Rectangle {
        implicitWidth: 80; implicitHeight: meter.implicitHeight
        radius: height / 2; color: Theme.border
    }
    contentItem: Item {
        implicitWidth: 80; implicitHeight: meter.implicitHeight
        Rectangle {
            width: Math.max(meter.visualPosition > 0 ? parent.height : 0, parent.width * meter.visualPosition)
            height: parent.height; radius: height / 2
            color: meter.fillColour
        }
    }
}
