pragma Singleton
import QtQuick

// One clock for every spinner in the window: the composer's, the sidebar's live chats' and the others
// step together, in one frame, instead of each asking for frames of its own at its own moments. It
// runs only while some spinner turns (each counts itself in and out).
QtObject {
    id: clock
    property int turning: 0
    property int step: 0
    readonly property Timer timer: Timer {
        objectName: "spinnerTimer"
        interval: 1000 / Theme.spinnerSteps  // one turn a second
        repeat: true
        running: clock.turning > 0
        onTriggered: clock.step = (clock.step + 1) % Theme.spinnerSteps
    }
}
