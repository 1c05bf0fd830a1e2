import QtQuick
import "../../common"

// A text field's or text area's hint while it is empty, drawn as written (a hint may come from an
// agent), inside the control's padding and in its font.
Text {
    required property var control
    x: control.leftPadding
    y: control.topPadding
    width: control.width - (control.leftPadding + control.rightPadding)
    height: control.height - (control.topPadding + control.bottomPadding)
    textFormat: Text.PlainText
    text: control.placeholderText
    font: control.font
    color: control.placeholderTextColor
    visible: !control.length && !control.preeditText
    elide: Text.ElideRight
}
