import QtQuick
import QtQuick.Templates as T
import "../../common"

// A floating surface: raised, rounded, a soft shadow; modal ones dim the window behind.
T.Popup {
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            contentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             contentHeight + topPadding + bottomPadding)
    padding: Theme.pad
    font.pixelSize: Theme.fontUi
    background: PopupLook { }
    T.Overlay.modal: Rectangle { color: Theme.scrim }
    T.Overlay.modeless: Rectangle { color: "transparent" }
}
