import QtQuick

// "Working": the icon font's loading arc turned in steps by a timer, a few frames a second, instead of
// the style's BusyIndicator, whose animation asks for a frame as often as the window can draw (on a
// display without vsync, hundreds a second) for a mark nobody reads that closely. With reduced motion
// the arc stands still; it never runs while hidden.
Item {
    id: root
    property bool running: true
    property int size: Theme.iconLarge
    property color color: Theme.muted
    readonly property bool turning: running && visible && !app.reducedMotion
    implicitWidth: size
    implicitHeight: size
    Accessible.role: Accessible.Animation

    Text {
        id: arc
        objectName: "spinnerArc"
        anchors.centerIn: parent
        text: icons.glyph("loading")
        font.family: icons.family
        font.pixelSize: root.size
        color: root.color
        Accessible.ignored: true
    }
    Timer {
        objectName: "spinnerTimer"
        interval: 1000 / Theme.spinnerSteps  // one turn a second
        repeat: true
        running: root.turning
        onTriggered: arc.rotation = (arc.rotation + 360 / Theme.spinnerSteps) % 360
    }
}
