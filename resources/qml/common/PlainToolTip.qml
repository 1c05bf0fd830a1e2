import QtQuick
import QtQuick.Controls

// A tool tip that shows its text as written. The style's tool tip (and so `ToolTip.text`) reads
// anything that looks like a tag as rich text: a name an agent chose could load an image or hide
// words. Use it for every tip that shows a chosen string: `PlainToolTip { text: ...; visible: hovered }`.
ToolTip {
    id: tip
    contentItem: Text {
        textFormat: Text.PlainText
        text: tip.text
        font: tip.font
        wrapMode: Text.Wrap
        color: tip.palette.toolTipText
    }
}
