import QtQuick
import QtQuick.Templates as T
import "../../common"

// A dialog: a raised sheet over a dimmed window, a title, the buttons right-aligned in its footer.
T.Dialog {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            contentWidth + leftPadding + rightPadding,
                            implicitHeaderWidth, implicitFooterWidth)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             contentHeight + topPadding + bottomPadding
                             + (implicitHeaderHeight > 0 ? implicitHeaderHeight + spacing : 0)
                             + (implicitFooterHeight > 0 ? implicitFooterHeight + spacing : 0))
    padding: Theme.spaceHuge
    topPadding: Theme.spaceLarge
    font.pixelSize: Theme.fontUi
    background: PopupLook { radius: Theme.radiusXl }
    header: Text {
        visible: control.title
        textFormat: Text.PlainText
        text: control.title
        font.pixelSize: Theme.fontTitle
        font.weight: Font.DemiBold
        color: Theme.text
        elide: Text.ElideRight
        padding: Theme.spaceHuge
        bottomPadding: 0
    }
    footer: DialogButtonBox { visible: count > 0 }
    T.Overlay.modal: Rectangle { color: Theme.scrim }
    T.Overlay.modeless: Rectangle { color: "transparent" }
}
