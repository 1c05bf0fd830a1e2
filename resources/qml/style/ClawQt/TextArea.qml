import QtQuick
import QtQuick.Templates as T
import "../../common"

// Several lines of typed text; without a background of its own when a card around it draws one.
T.TextArea {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(contentWidth + leftPadding + rightPadding,
                            implicitBackgroundWidth + leftInset + rightInset,
                            placeholder.implicitWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(contentHeight + topPadding + bottomPadding,
                             implicitBackgroundHeight + topInset + bottomInset,
                             placeholder.implicitHeight + topPadding + bottomPadding)
    padding: Theme.gap
    leftPadding: Theme.spaceField
    rightPadding: Theme.spaceField
    font.pixelSize: Theme.fontUi
    color: enabled ? Theme.text : Theme.disabled
    selectionColor: Theme.accent
    selectedTextColor: Theme.textOnAccent
    placeholderTextColor: Theme.muted
    Placeholder {
        id: placeholder
        control: control
        wrapMode: Text.Wrap
    }
    background: FieldLook { control: control }
}
