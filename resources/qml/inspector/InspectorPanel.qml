import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The protocol inspector (F12): the current agent's JSON-RPC traffic both ways and its stderr, newest at
// the bottom (followed while the list is at its end), filtered by method, session or id and by direction;
// the picked message's text beside it, indented on demand. Save trace… writes what is kept as a
// `--record` trace; Open trace… shows one as a read-only chat (trace_view.py). Built the first time it
// opens.
Rectangle {
    id: root
    objectName: "inspectorPanel"
    signal hideRequested()
    color: Theme.surface
    property int picked: -1
    property bool pretty: true
    readonly property string pickedText: picked >= 0 && picked < entries.count ? inspector.text(picked, pretty) : ""

    ColumnLayout {
        anchors.fill: parent
        spacing: 0
        Rectangle { Layout.fillWidth: true; height: 1; color: Theme.border }
        RowLayout {
            Layout.fillWidth: true
            Layout.margins: Theme.gap
            spacing: Theme.gap
            // the two labels give up their width first (elided), so the buttons always fit
            Label { textFormat: Text.PlainText; text: "Protocol \u00b7 " + inspector.agent; font.bold: true; color: Theme.text
                    elide: Text.ElideRight; Layout.minimumWidth: 0; Layout.maximumWidth: implicitWidth; Layout.fillWidth: true }
            Label { textFormat: Text.PlainText; objectName: "inspectorCount"; color: Theme.muted; font.pixelSize: Theme.fontSmall
                    elide: Text.ElideRight; Layout.minimumWidth: 0; Layout.maximumWidth: implicitWidth; Layout.fillWidth: true
                    text: entries.count === inspector.total ? inspector.total + " messages"
                                                            : entries.count + " of " + inspector.total + " messages" }
            TextField {
                id: filterField
                objectName: "inspectorFilter"
                Layout.fillWidth: true
                Layout.minimumWidth: Theme.filterWidth
                placeholderText: "Filter by method, session or id"
                text: inspector.filterText
                onTextEdited: inspector.setFilter(text)
                Accessible.name: "Filter the messages by method, session or request id"
            }
            Repeater {
                model: [{ dir: "send", label: "Sent" }, { dir: "recv", label: "Received" }, { dir: "stderr", label: "Stderr" }]
                ToolButton {
                    required property var modelData
                    objectName: "inspectorShow_" + modelData.dir
                    text: modelData.label
                    contentItem: ButtonText {}
                    checkable: true
                    checked: true
                    onToggled: inspector.setShown(modelData.dir, checked)
                    Accessible.name: (checked ? "Hide " : "Show ") + modelData.label.toLowerCase() + " messages"
                }
            }
            Switch { objectName: "inspectorPretty"; text: "Pretty"; checked: root.pretty; onToggled: root.pretty = checked }
            // the trace buttons are icons with tooltips: with their words the bar did not fit beside the
            // filter in a window of ordinary width (the close button went past the edge)
            ToolButton { objectName: "inspectorSave"; contentItem: IconLabel { icon: "save" }
                         Accessible.name: "Save the traffic as a trace file"
                         ToolTip.visible: hovered; ToolTip.text: "Save trace\u2026"
                         onClicked: inspector.saveTrace() }
            ToolButton { objectName: "inspectorSaveReport"; contentItem: IconLabel { icon: "shield-check" }
                         Accessible.name: "Save the traffic for a bug report, what is yours taken out"
                         ToolTip.visible: hovered; ToolTip.text: "Save trace for a bug report\u2026"
                         onClicked: reportRules.open() }
            ToolButton { objectName: "inspectorOpen"; contentItem: IconLabel { icon: "folder-open" }
                         enabled: !traceView.loading
                         Accessible.name: "Open a trace file as a read-only chat"
                         ToolTip.visible: hovered; ToolTip.text: "Open trace\u2026 (shown as a read-only chat)"
                         onClicked: traceView.openTrace() }
            ToolButton { objectName: "inspectorDoctor"; contentItem: IconLabel { icon: "activity" }
                         Accessible.name: "Protocol doctor for this agent"
                         ToolTip.visible: hovered; ToolTip.text: "Protocol doctor: what it offers, what ClawQt allows it, a check"
                         onClicked: doctor.openCurrent() }
            ToolButton { objectName: "inspectorClear"; contentItem: IconLabel { icon: "list-x" }
                         Accessible.name: "Clear the inspector"
                         ToolTip.visible: hovered; ToolTip.text: "Clear"
                         onClicked: { root.picked = -1; inspector.clear() } }
            ToolButton { objectName: "inspectorClose"; contentItem: IconLabel { icon: "x" }
                         Accessible.name: "Close the inspector (F12)"
                         onClicked: root.hideRequested() }
        }
        SplitView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            ListView {
                id: entries
                objectName: "inspectorList"
                SplitView.preferredWidth: root.width * 0.45
                SplitView.minimumWidth: 240
                clip: true
                model: inspector
                boundsBehavior: Flickable.StopAtBounds
                ScrollBar.vertical: ScrollBar {}
                keyNavigationEnabled: true
                currentIndex: root.picked
                property bool following: true
                onMovementEnded: following = atYEnd
                onCountChanged: if (following) Qt.callLater(positionViewAtEnd)
                Accessible.name: "Messages"
                delegate: ItemDelegate {
                    id: entry
                    required property int index
                    required property string time
                    required property string direction
                    required property string kind
                    required property string method
                    required property string rpcId
                    required property string session
                    required property int size
                    objectName: "inspectorEntry"
                    width: ListView.view.width
                    highlighted: index === root.picked
                    onClicked: { root.picked = index; entries.forceActiveFocus() }
                    Accessible.name: direction + " " + (method || kind) + (rpcId ? " id " + rpcId : "")
                    contentItem: RowLayout {
                        spacing: Theme.gap
                        Text { textFormat: Text.PlainText; text: entry.time; color: Theme.muted; font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                               Layout.preferredWidth: 64 }
                        Icon { icon: entry.direction === "send" ? "arrow-up" : entry.direction === "recv" ? "arrow-down" : "triangle-alert"
                               color: entry.direction === "stderr" ? Theme.warning : entry.kind === "error" ? Theme.danger
                                      : entry.direction === "send" ? Theme.accent : Theme.success }
                        Text { textFormat: Text.PlainText; text: entry.direction === "stderr" ? "stderr" : (entry.method || "(response)")
                                     + (entry.kind === "response" || entry.kind === "error" ? " \u21a9" : "")
                               color: entry.kind === "error" ? Theme.danger : Theme.text; elide: Text.ElideRight
                               font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontSmall; Layout.fillWidth: true }
                        Text { textFormat: Text.PlainText; visible: entry.rpcId !== ""; text: "#" + entry.rpcId; color: Theme.muted
                               font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption }
                        Text { textFormat: Text.PlainText; text: entry.size < 1024 ? entry.size + " B" : Math.round(entry.size / 1024) + " KB"
                               color: Theme.muted; font.pixelSize: Theme.fontCaption }
                    }
                }
                Keys.onUpPressed: root.picked = Math.max(0, root.picked - 1)
                Keys.onDownPressed: root.picked = Math.min(count - 1, root.picked + 1)
            }
            ScrollView {
                SplitView.fillWidth: true
                TextArea {
                    objectName: "inspectorText"
                    readOnly: true
                    selectByMouse: true
                    wrapMode: TextEdit.WrapAnywhere
                    textFormat: TextEdit.PlainText
                    font.family: Theme.mono; font.features: Theme.codeFeatures
                    font.pixelSize: Theme.fontSmall
                    color: Theme.text
                    text: root.pickedText
                    placeholderText: "Pick a message to see it whole"
                    background: Rectangle { color: Theme.sunken }
                }
            }
        }
    }
    Dialog {  // the rules a trace for a bug report is saved by, shown before the file is chosen
        id: reportRules
        objectName: "reportRulesDialog"
        parent: Overlay.overlay
        anchors.centerIn: parent
        width: Math.min(560, parent ? parent.width - 2 * Theme.spaceHuge : 560)
        modal: true
        title: "Save trace for a bug report"
        ColumnLayout {
            width: parent.width
            spacing: Theme.gap
            Label { textFormat: Text.PlainText; wrapMode: Text.Wrap; Layout.fillWidth: true; color: Theme.text2
                    text: "The trace keeps the messages ClawQt and the agent exchanged, with these taken out:" }
            Repeater {
                model: inspector.reportRules
                delegate: RowLayout {
                    required property string modelData
                    Layout.fillWidth: true
                    spacing: Theme.gap
                    Icon { icon: "shield-check"; size: Theme.iconSmall; color: Theme.success; Layout.alignment: Qt.AlignTop
                           Layout.topMargin: Theme.spaceHair }
                    Label { textFormat: Text.PlainText; text: modelData; wrapMode: Text.Wrap; Layout.fillWidth: true
                            color: Theme.text }
                }
            }
            Label { textFormat: Text.PlainText; wrapMode: Text.Wrap; Layout.fillWidth: true; color: Theme.muted
                    font.pixelSize: Theme.fontSmall
                    text: "Anything else you typed or the agent said stays: read the file before you share it. Its first line says what was taken out." }
        }
        footer: DialogButtonBox {
            Button { objectName: "reportRulesSave"; text: "Choose where to save\u2026"
                     DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole }
            Button { objectName: "reportRulesCancel"; text: "Cancel"
                     DialogButtonBox.buttonRole: DialogButtonBox.RejectRole }
        }
        onAccepted: inspector.saveReportTrace()
    }
}
