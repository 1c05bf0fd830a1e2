import QtQuick

// How much of the agent's context the chat uses, as a small ring (look.md §3.9): a track and an arc
// from the top, clockwise, in the accent, amber past three quarters and red past nine tenths; the
// numbers beside it and in its tooltip. Drawn again only when the share or the colours change.
Item {
    id: ring
    property real value: 0  // 0..1
    readonly property color fillColour: value > 0.9 ? Theme.danger : value > 0.75 ? Theme.warning : Theme.accent
    readonly property alias hovered: hover.hovered
    implicitWidth: Theme.iconSize
    implicitHeight: Theme.iconSize
    HoverHandler { id: hover }
    Loader {  // a canvas only once there is a share to draw (none at startup)
        anchors.fill: parent
        active: ring.visible
        sourceComponent: canvasComponent
    }
    Component {
        id: canvasComponent
        Canvas {
            id: canvas
            readonly property var look: [ring.value, ring.fillColour, Theme.border]
            onLookChanged: requestPaint()
            onPaint: {
                const ctx = getContext("2d")
                const stroke = Math.max(2, width / 7)
                const r = (Math.min(width, height) - stroke) / 2
                ctx.reset()
                ctx.lineWidth = stroke
                ctx.strokeStyle = Theme.border
                ctx.beginPath(); ctx.arc(width / 2, height / 2, r, 0, 2 * Math.PI); ctx.stroke()
                const share = Math.max(0, Math.min(1, ring.value))
                if (share > 0) {
                    ctx.strokeStyle = ring.fillColour
                    ctx.lineCap = "round"
                    ctx.beginPath()
                    ctx.arc(width / 2, height / 2, r, -Math.PI / 2, -Math.PI / 2 + share * 2 * Math.PI)
                    ctx.stroke()
                }
            }
        }
    }
}
