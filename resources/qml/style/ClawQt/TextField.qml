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
    selectionColor: Theme.accent
    selectedTextColor: Theme.textOnAccent
    placeholderTextColor: Theme.muted
    verticalAlignment: TextInput.AlignVCenter
    Placeholder {
        id: placeholder
        control: control
        verticalAlignment: control.verticalAlignment
    }
    background: FieldLook { control: control }
}
