import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Settings' Permissions section: the rules the user kept with a permission card's "Always allow…" /
// "Always deny…" (newest first, each removable), and the newest decisions they made, with Export to
// keep the whole log as CSV. Rules answer agents' permission requests only; the folders agents may use
// and the terminal checks are decided elsewhere.
ColumnLayout {
    id: root
    property Item next: null  // where Tab goes after Export
    property alias first: exportButton  // where Tab comes in when no rule is listed
    spacing: Theme.gap

    Label {
        objectName: "settingsSection_Permissions"
        textFormat: Text.PlainText
        text: "Permissions"
        font.weight: Font.DemiBold; font.pixelSize: Theme.fontTitle
        color: Theme.text
        Accessible.role: Accessible.Heading
        Layout.topMargin: Theme.pad
    }
    Label {
        textFormat: Text.PlainText
        text: rules.rules.length ? "Your rules answer these requests without asking (they never reach beyond a chat's folders):"
                                 : "No rules yet: \u201cAlways allow\u2026\u201d or \u201cAlways deny\u2026\u201d on a permission request keeps one."
        color: Theme.muted; font.pixelSize: Theme.fontSmall
        wrapMode: Text.Wrap; Layout.fillWidth: true
    }
    Repeater {
        model: rules.rules
        delegate: RowLayout {
            id: ruleRow
            required property var modelData
            objectName: "settingsRule"
            Layout.fillWidth: true
            Icon { icon: ruleRow.modelData.decision === "allow" ? "shield-check" : "shield-x"
                   color: ruleRow.modelData.decision === "allow" ? Theme.success : Theme.danger
                   size: Theme.iconSmall; Accessible.ignored: true }
            Label { textFormat: Text.PlainText; text: ruleRow.modelData.words + " (" + ruleRow.modelData.agent + ")"
                    color: Theme.text; font.pixelSize: Theme.fontSmall; wrapMode: Text.Wrap; Layout.fillWidth: true }
            Button {
                objectName: "settingsFlipRule"
                text: ruleRow.modelData.decision === "allow" ? "Deny instead" : "Allow instead"
                flat: true
                onClicked: rules.change(ruleRow.modelData.id, ruleRow.modelData.decision === "allow" ? "deny" : "allow", false)
                Accessible.name: text + ": " + ruleRow.modelData.words
            }
            Button {
                objectName: "settingsWidenRule"
                visible: ruleRow.modelData.folder !== ""
                text: "In every folder"
                flat: true
                onClicked: rules.change(ruleRow.modelData.id, ruleRow.modelData.decision, true)
                Accessible.name: "Apply in every folder: " + ruleRow.modelData.words
            }
            ToolButton {
                objectName: "settingsRemoveRule"
                contentItem: IconLabel { icon: "trash"; color: Theme.muted }
                onClicked: rules.remove(ruleRow.modelData.id)
                Accessible.name: "Remove the rule: " + ruleRow.modelData.words
                ToolTip.visible: hovered
                ToolTip.text: "Remove"
            }
        }
    }
    Label {
        textFormat: Text.PlainText
        text: rules.audit.length ? "What your rules decided, newest first:" : "Your rules have decided nothing yet."
        color: Theme.muted; font.pixelSize: Theme.fontSmall
        Layout.topMargin: Theme.spaceSmall
    }
    Repeater {
        model: rules.audit
        delegate: Label {
            required property var modelData
            objectName: "settingsDecision"
            textFormat: Text.PlainText
            text: modelData.at.replace("T", " ").slice(0, 16) + "  " + (modelData.decision === "allow" ? "Allowed" : "Denied")
                  + " " + (modelData.request || "a request") + " (" + modelData.agent + ", " + modelData.option + ")"
            color: Theme.text2; font.pixelSize: Theme.fontSmall
            elide: Text.ElideRight; Layout.fillWidth: true
        }
    }
    Button {
        id: exportButton
        objectName: "settingsExportDecisions"
        enabled: rules.audit.length > 0
        contentItem: IconLabel { icon: "save"; label: "Export the decisions\u2026"; color: Theme.text }
        onClicked: rules.exportAudit()
        Accessible.name: "Export every decision your rules made, as CSV"
        KeyNavigation.tab: root.next
    }
}
