pragma Singleton
import QtQuick

// One clock for every spinner in the window: the composer's, the sidebar's live chats' and the others
// step together, in one frame, instead of each asking for frames of its own at its own moments. It
// runs only while some spinner turns (each counts itself in and out).
//
// While the conversation changes anyway (a streaming reply), a step rides along with a change
// (`ride()`, called as the change is applied, before the frame showing it): the step lands in a frame
// the window draws anyway, and the timer, restarted at each step, never asks for a frame of its own.
QtObject {
    id: clock
    property int turning: 0
    property int step: 0
    property double steppedAt: 0  // Date.now() of the last step
    readonly property int interval: 1000 / Theme.spinnerSteps  // one turn a second
    // A step rides a change this much before it is due: changes come a few tens of ms apart, so one
    // usually arrives before the timer would have stepped on its own.
    readonly property int rideEarly: interval / 3

    function advance() {
        step = (step + 1) % Theme.spinnerSteps
        steppedAt = Date.now()
    }
    function ride() {
        if (turning > 0 && Date.now() - steppedAt >= interval - rideEarly) {
            advance()
            timer.restart()
        }
    }

    readonly property Timer timer: Timer {
        objectName: "spinnerTimer"
        interval: clock.interval
        repeat: true
        running: clock.turning > 0
        onTriggered: clock.advance()
    }
}
