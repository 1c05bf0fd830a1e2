import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// A waiting permission's "Always allow…" and "Always deny…": each opens the rules the main side offers
// for this request (narrowest first: the command's first words, the files' folder, every call of the
// kind; in this chat's folder, for this agent), and the one chosen answers this request and every
// other waiting one it matches. The rule is kept until removed (Settings > Permissions, or Undo rule).
RowLayout {
    id: root
    required property QtObject rules  // the window's `rules` (rules_view.py)
    required property string requestId
    spacing: Theme.spaceSmall

    Repeater {
        model: [{ decision: "allow", label: "Always allow\u2026" }, { decision: "deny", label: "Always deny\u2026" }]
        Button {
            id: ruleButton
            required property var modelData
            objectName: "ruleButton_" + modelData.decision
            text: modelData.decision === "allow" ? "Always allow\u2026" : "Always deny\u2026"
            flat: true
            property var offered: []
            onClicked: { offered = root.rules.offers(root.requestId, modelData.decision); menu.popup(ruleButton, 0, height) }
            Keys.onReturnPressed: clicked()
            Keys.onEnterPressed: clicked()
            Accessible.name: text + " (remember the answer for such requests)"
            Menu {
                id: menu
                objectName: "ruleMenu_" + ruleButton.modelData.decision
                width: Math.max(implicitWidth, Math.min(560, root.parent ? root.parent.width : 560))  // the words whole
                Instantiator {
                    model: ruleButton.offered
                    delegate: MenuItem {
                        required property var modelData
                        required property int index
                        objectName: "ruleOffer_" + index
                        text: modelData
                        contentItem: ButtonText { horizontalAlignment: Text.AlignLeft }  // as written
                        onTriggered: root.rules.remember(root.requestId, ruleButton.modelData.decision, index)
                    }
                    onObjectAdded: (index, item) => menu.insertItem(index, item)
                    onObjectRemoved: (index, item) => menu.removeItem(item)
                }
            }
        }
    }
}
