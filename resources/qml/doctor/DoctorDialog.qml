import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The protocol doctor for one agent (doctor/doctor_view.py): what it offers and what ClawQt allows it,
// each feature on or off in plain words; Check runs it on a connection of its own, step by step with
// times (a short message only when ticked: it may cost the agent's model tokens); what initialize sent
// and received and the agent's stderr on demand; Copy report for a bug report.
Dialog {
    id: root
    objectName: "doctorDialog"
    parent: Overlay.overlay
    anchors.centerIn: parent
    width: Math.min(720, parent ? parent.width - 2 * Theme.spaceHuge : 720)
    height: Math.min(implicitHeight, parent ? parent.height - 2 * Theme.spaceHuge : implicitHeight)
    modal: true
    focus: true
    // the agent's name (its own words) is drawn as plain text below, not in the style's title
    title: "Protocol doctor"
    Accessible.name: "Protocol doctor for " + doctor.agentName
    onClosed: doctor.close()
    onOpened: checkButton.forceActiveFocus()

    component FindingRow: RowLayout {
        required property var modelData
        Layout.fillWidth: true
        spacing: Theme.gap
        Icon { icon: modelData.on ? "circle-check" : "circle-slash"; size: Theme.iconSmall
               color: modelData.on ? Theme.success : Theme.muted; Layout.alignment: Qt.AlignTop; Layout.topMargin: Theme.spaceHair }
        Label { textFormat: Text.PlainText; text: modelData.feature; color: Theme.text; font.weight: Font.DemiBold
                Layout.preferredWidth: 190; Layout.alignment: Qt.AlignTop; wrapMode: Text.Wrap }
        Label { textFormat: Text.PlainText; text: modelData.words; color: modelData.on ? Theme.text2 : Theme.text
                wrapMode: Text.Wrap; Layout.fillWidth: true }
        Accessible.role: Accessible.StaticText
        Accessible.name: modelData.feature + (modelData.on ? ", on: " : ", off: ") + modelData.words
    }

    ScrollView {
        id: scroller
        anchors.fill: parent
        contentWidth: availableWidth
        ColumnLayout {
            width: scroller.availableWidth
            spacing: Theme.gap
            Label { objectName: "doctorAgent"; textFormat: Text.PlainText; text: doctor.agentName
                    font.weight: Font.DemiBold; font.pixelSize: Theme.fontTitle; color: Theme.text
                    elide: Text.ElideRight; Layout.fillWidth: true }
            Label { objectName: "doctorCommand"; textFormat: Text.PlainText; text: doctor.command
                    font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                    color: Theme.muted; elide: Text.ElideMiddle; Layout.fillWidth: true }
            Label { objectName: "doctorNote"; visible: text !== ""; textFormat: Text.PlainText; text: doctor.note
                    wrapMode: Text.Wrap; color: Theme.text2; Layout.fillWidth: true }

            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gap
                Button {
                    id: checkButton
                    objectName: "doctorCheck"
                    enabled: !doctor.checking
                    contentItem: IconLabel { icon: "activity"; label: doctor.checking ? "Checking\u2026" : "Check" }
                    onClicked: doctor.check(sendMessage.checked)
                    Accessible.name: "Check the agent: start it, initialize, open a chat" + (sendMessage.checked ? ", send a short message" : "")
                }
                CheckBox {
                    id: sendMessage
                    objectName: "doctorSendMessage"
                    text: "Also send a short message (it may use the agent's model)"
                }
                Item { Layout.fillWidth: true }
                Spinner { visible: doctor.checking; size: Theme.iconSmall; Accessible.ignored: true }
            }
            Repeater {
                model: doctor.steps
                delegate: RowLayout {
                    objectName: "doctorStep"
                    required property var modelData
                    Layout.fillWidth: true
                    spacing: Theme.gap
                    Icon { icon: modelData.ok ? "circle-check" : "circle-x"; size: Theme.iconSmall
                           color: modelData.ok ? Theme.success : Theme.danger; Layout.alignment: Qt.AlignTop; Layout.topMargin: Theme.spaceHair }
                    Label { textFormat: Text.PlainText; text: modelData.name; color: Theme.text; font.weight: Font.DemiBold
                            Layout.preferredWidth: 190; Layout.alignment: Qt.AlignTop }
                    Label { textFormat: Text.PlainText; text: modelData.seconds < 1 ? Math.round(modelData.seconds * 1000) + " ms"
                                                            : modelData.seconds.toFixed(1) + " s"
                            color: Theme.muted
                            font.pixelSize: Theme.fontCaption; Layout.preferredWidth: 56; Layout.alignment: Qt.AlignTop
                            Layout.topMargin: Theme.spaceHair }
                    Label { textFormat: Text.PlainText; text: modelData.words; wrapMode: Text.Wrap; Layout.fillWidth: true
                            color: modelData.ok ? Theme.text2 : Theme.danger }
                    Accessible.role: Accessible.StaticText
                    Accessible.name: modelData.name + (modelData.ok ? ", done in " : ", failed after ")
                                     + modelData.seconds.toFixed(3) + " seconds: " + modelData.words
                }
            }

            Rectangle { Layout.fillWidth: true; implicitHeight: 1; color: Theme.border; Layout.topMargin: Theme.gap }
            Label { visible: doctor.findings.length > 0; textFormat: Text.PlainText; text: "What " + doctor.agentName + " offers"
                    font.weight: Font.DemiBold; color: Theme.text; Accessible.role: Accessible.Heading }
            Repeater { model: doctor.findings.filter(f => f.side === "agent"); delegate: FindingRow {} }
            Label { visible: doctor.findings.length > 0; textFormat: Text.PlainText; text: "What ClawQt allows it"
                    font.weight: Font.DemiBold; color: Theme.text; Layout.topMargin: Theme.gap
                    Accessible.role: Accessible.Heading }
            Repeater { model: doctor.findings.filter(f => f.side === "clawqt"); delegate: FindingRow {} }

            Rectangle { Layout.fillWidth: true; implicitHeight: 1; color: Theme.border; Layout.topMargin: Theme.gap }
            Repeater {  // the raw exchange and the agent's own words, folded until asked for
                model: [
                    { name: "doctorOffered", title: "initialize, as the agent answered", text: doctor.offered },
                    { name: "doctorDeclared", title: "initialize, as ClawQt sent it", text: doctor.declared },
                    { name: "doctorStderr", title: "The agent's stderr (last lines)", text: doctor.stderrTail }
                ]
                delegate: ColumnLayout {
                    required property var modelData
                    Layout.fillWidth: true
                    spacing: Theme.spaceTight
                    visible: modelData.text !== ""
                    ToolButton {
                        id: fold
                        objectName: modelData.name + "Toggle"
                        checkable: true
                        contentItem: IconLabel { icon: fold.checked ? "chevron-down" : "chevron-right"; label: modelData.title }
                        Accessible.name: (fold.checked ? "Hide " : "Show ") + modelData.title
                    }
                    TextArea {
                        objectName: modelData.name
                        visible: fold.checked
                        Layout.fillWidth: true
                        readOnly: true; selectByMouse: true
                        textFormat: TextEdit.PlainText
                        wrapMode: TextEdit.WrapAnywhere
                        text: modelData.text
                        font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                        color: Theme.text
                        background: Rectangle { color: Theme.sunken; radius: Theme.radiusSmall }
                    }
                }
            }
        }
    }
    footer: DialogButtonBox {
        Button {
            objectName: "doctorCopy"
            enabled: doctor.findings.length > 0
            contentItem: IconLabel { icon: "copy"; label: "Copy report" }
            onClicked: doctor.copyReport()
            DialogButtonBox.buttonRole: DialogButtonBox.ActionRole
            Accessible.name: "Copy the report, for a bug report"
        }
        Button {
            objectName: "doctorClose"
            text: "Close"
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}
