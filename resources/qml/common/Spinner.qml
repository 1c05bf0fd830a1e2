import QtQuick

// "Working": the icon font's loading arc turned in steps by the window's one SpinnerClock, a few frames
// a second, instead of the style's BusyIndicator, whose animation asks for a frame as often as the
// window can draw (on a display without vsync, hundreds a second) for a mark nobody reads that closely.
// With reduced motion the arc stands still; it never turns while hidden.
Item {
    id: root
    property bool running: true
    property int size: Theme.iconLarge
    property color color: Theme.muted
    readonly property bool turning: running && visible && !app.reducedMotion
    property bool counted: false  // counted among the clock's turning spinners
    implicitWidth: size
    implicitHeight: size
    Accessible.role: Accessible.Animation

    function count() {
        if (counted === turning)
            return
        SpinnerClock.turning += turning ? 1 : -1
        counted = turning
    }
    onTurningChanged: count()
    Component.onCompleted: count()
    Component.onDestruction: if (counted) SpinnerClock.turning -= 1

    Icon {
        id: arc
        objectName: "spinnerArc"
        anchors.centerIn: parent
        icon: "loader-circle"
        size: root.size
        color: root.color
        rotation: root.turning ? SpinnerClock.step * 360 / Theme.spinnerSteps : 0
        Accessible.ignored: true
    }
}
