import QtQuick
import QtQuick.Templates as T
import "../../common"

// One line of typed text.
T.TextField {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: implicitBackgroundWidth + leftInset + rightInset
                   || Math.max(contentWidth, placeholder.implicitWidth) + leftPadding + rightPadding
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             contentHeight + topPadding + bottomPadding,
                             placeholder.implicitHeight + topPadding + bottomPadding)
    topPadding: Theme.spaceSmall
    bottomPadding: Theme.spaceSmall
    leftPadding: Theme.spaceField
    rightPadding: Theme.spaceField
    font.pixelSize: Theme.fontUi
    color: enabled ? Theme.text : Theme.disabled
    selectionColor: Theme.highlight
    selectedTextColor: Theme.textOnAccent
    placeholderTextColor: Theme.muted
    verticalAlignment: TextInput.AlignVCenter
    Text {
        id: placeholder
        x: control.leftPadding
        y: control.topPadding
        width: control.width - (control.leftPadding + control.rightPadding)
        height: control.height - (control.topPadding + control.bottomPadding)
        textFormat: Text.PlainText
        text: control.placeholderText
        font: control.font
        color: control.placeholderTextColor
        verticalAlignment: control.verticalAlignment
        visible: !control.length && !control.preeditText
        elide: Text.ElideRight
    }
    background: FieldLook { control: control }
}
