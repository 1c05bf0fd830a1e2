import QtQuick
import "../../common"

// A button's words, as written (plain text: a label may come from an agent), in its variant's colour.
Text {
    required property var control
    textFormat: Text.PlainText
    text: control.text
    font: control.font
    color: !control.enabled ? Theme.disabled : control.highlighted ? Theme.textOnAccent
         : control.danger === true ? Theme.danger : Theme.text
    horizontalAlignment: Text.AlignHCenter
    verticalAlignment: Text.AlignVCenter
    elide: Text.ElideRight
}
