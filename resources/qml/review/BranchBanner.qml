import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The shown chat continues another one ("Continue from here", "Edit and resend"): which, with which
// agent, how the conversation came over, and the way back to it (left as it was).
Rectangle {
    id: root
    objectName: "branchBanner"
    readonly property var origin: branching.origin
    visible: !!root.origin.sourceKey && !session.readOnly
    implicitHeight: visible ? row.implicitHeight + Theme.spaceSmall * 2 : 0
    color: Theme.accentSubtle
    Accessible.role: Accessible.StaticText
    Accessible.name: summary.text

    RowLayout {
        id: row
        x: Theme.pad; y: Theme.spaceSmall
        width: parent.width - 2 * Theme.pad
        spacing: Theme.gap
        Icon { icon: "git-branch"; size: Theme.iconSmall; color: Theme.accent }
        Label {
            id: summary
            objectName: "branchSummary"
            Layout.fillWidth: true
            textFormat: Text.PlainText
            elide: Text.ElideRight
            color: Theme.text
            text: "Continues \u201c" + (root.origin.title || "") + "\u201d"
                  + (root.origin.agent ? " with " + root.origin.agent : "")
                  + " \u00b7 " + (root.origin.how || "")
                  + (root.origin.waiting ? " with your first message" : "")
        }
        Button {
            objectName: "branchOpenOrigin"
            flat: true
            text: "Open original"
            Accessible.name: "Open the chat this one continues"
            onClicked: branching.openOrigin()
        }
    }
}
