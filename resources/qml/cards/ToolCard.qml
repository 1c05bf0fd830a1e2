import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// One tool call: kind, title, status; when expanded its input, diffs, output (whitespace kept), locations
// and, for terminal tools, the agent's description above the rendered terminal with its working directory
// and exit pill. A call that changes files or runs a terminal is a card; a read, a search, a fetch is a
// quiet row (the machinery stays out of the way of the conversation), tinted only under the pointer. A
// status shows only when it says something: running, failed, cancelled, never "done".
Rectangle {
    id: card
    required property QtObject objects  // the window objects it uses (row_objects.py)
    objectName: "toolCard"
    required property var tool
    property int rowIndex: -1  // the view row of the tool's row (toggles go through it)
    // a permission about this call waits: the card holds the decision in its footer (permission_card.py)
    readonly property bool asking: !!card.tool.permission && card.tool.permission.status === "pending"
    readonly property bool framed: card.tool.diffs.length > 0 || !!card.tool.terminal || !!card.tool.console
                                   || ["edit", "delete", "move"].indexOf(card.tool.toolKind) >= 0 || asking
    implicitHeight: column.implicitHeight + 2 * (framed ? Theme.gap : Theme.spaceTight)
    radius: framed ? Theme.radiusLarge : Theme.radiusControl
    color: framed ? Theme.surface : hover.hovered ? Theme.hover : "transparent"
    border.width: framed ? 1 : 0
    border.color: asking ? Theme.warningBorder : Theme.border
    HoverHandler { id: hover }
    Shadow { visible: card.asking; level: 1; radius: card.radius }

    ColumnLayout {
        id: column
        x: card.framed ? Theme.gap : 0; y: card.framed ? Theme.gap : Theme.spaceTight
        width: card.width - 2 * x
        spacing: Theme.spaceTight
        RowLayout {
            Layout.fillWidth: true
            ToolButton {
                id: toggle
                objectName: "toolToggle"
                contentItem: Row {
                    spacing: Theme.spaceSmall
                    Icon { icon: card.tool.expanded ? "chevron-down" : "chevron-right"; size: Theme.iconMedium; color: Theme.muted
                           anchors.verticalCenter: parent.verticalCenter }
                    Icon { objectName: "toolKindIcon"; icon: card.objects.icons.toolKind(card.tool.toolKind); color: Theme.text2
                           anchors.verticalCenter: parent.verticalCenter
                           Accessible.name: card.tool.toolKind }
                }
                Accessible.name: (card.tool.expanded ? "Collapse " : "Expand ") + card.tool.title
                onClicked: card.objects.timeline.toggle(card.rowIndex, card.tool.id, card.tool.expanded)
            }
            Text {
                textFormat: Text.PlainText
                Layout.fillWidth: true
                text: card.tool.title
                elide: Text.ElideRight
                font.family: card.tool.toolKind === "execute" ? Theme.mono : Qt.application.font.family
                color: card.framed || hover.hovered ? Theme.text : Theme.text2
            }
            Text {
                textFormat: Text.PlainText
                objectName: "toolDuration"
                visible: text !== ""
                text: card.tool.duration || ""
                color: Theme.muted; font.pixelSize: Theme.fontCaption
                Accessible.name: "took " + text
            }
            StatusPill {
                objectName: "statusPill"
                visible: card.tool.status !== "completed" && !card.asking  // its footer says what it waits for
                status: card.tool.status
                label: card.tool.statusLabel
            }
        }
        Text {  // the agent's `error` for the call: shown whether the card is open or not
            objectName: "toolError"
            visible: !!card.tool.error
            Layout.fillWidth: true
            text: card.tool.error || ""
            textFormat: Text.PlainText
            color: Theme.danger
            wrapMode: Text.Wrap
            maximumLineCount: 6; elide: Text.ElideRight
            Accessible.name: "Error: " + text
        }
        Loader {
            Layout.fillWidth: true
            Layout.leftMargin: card.framed ? 0 : Theme.spaceHuge  // a quiet row's details hang under its title
            active: card.tool.expanded
            visible: active
            sourceComponent: ColumnLayout {
                spacing: Theme.spaceTight
                Text { textFormat: Text.PlainText; visible: card.tool.locations.length > 0 && card.tool.diffs.length === 0; text: card.tool.locations.join("  \u00b7  ")
                       color: Theme.muted; font.pixelSize: Theme.fontCaption; elide: Text.ElideMiddle; Layout.fillWidth: true }
                TextEdit {  // the agent's description of the command stays above its terminal (seed 004)
                    objectName: "toolDescription"
                    onTextChanged: if (card.objects.search.isActive) card.objects.search.watch(this)
                    visible: !!card.tool.description
                    Layout.fillWidth: true
                    text: card.tool.description || ""
                    textFormat: TextEdit.PlainText
                    readOnly: true; selectByMouse: true
                    color: Theme.text
                    wrapMode: TextEdit.Wrap
                }
                Loader {  // the terminal card, or the ```console fallback shown the same way
                    id: terminalLoader
                    Layout.fillWidth: true
                    readonly property var screen: card.tool.terminal ? card.tool.terminal : card.tool.console
                    readonly property bool running: !!card.tool.terminal
                                                    && (card.tool.status === "running" || card.tool.status === "pending")
                    active: screen !== null && screen !== undefined
                    visible: active
                    source: active ? card.objects.paintedTypes.withTerminalScreen("TerminalView.qml") : ""
                    onLoaded: {
                        item.objects = card.objects
                        item.terminal = Qt.binding(() => terminalLoader.screen)
                        item.toolId = Qt.binding(() => card.tool.id)
                        item.running = Qt.binding(() => terminalLoader.running)
                    }
                }
                ColumnLayout {  // the input as `key: value` lines; the raw JSON behind a toggle
                    id: inputView
                    objectName: "toolInput"
                    property bool raw: false  // the view's own state: the user asked for the raw input
                    visible: card.tool.input !== "" && card.tool.toolKind !== "execute"
                             && !(card.tool.toolKind === "edit" && (card.tool.output !== "" || card.tool.diffs.length > 0))
                    Layout.fillWidth: true
                    spacing: Theme.spaceHair
                    Text {
                        objectName: "toolInputLines"
                        Layout.fillWidth: true
                        text: inputView.raw ? card.tool.input : card.tool.inputLines
                        font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                        color: Theme.muted
                        wrapMode: inputView.raw ? Text.WrapAnywhere : Text.NoWrap
                        elide: inputView.raw ? Text.ElideNone : Text.ElideRight
                        textFormat: Text.PlainText
                        maximumLineCount: inputView.raw ? 40 : 7
                    }
                    ToolButton {
                        id: rawToggle
                        objectName: "toolRawInput"
                        visible: card.tool.input !== card.tool.inputLines
                        text: inputView.raw ? "Fields" : "Raw input"
                        contentItem: Text { textFormat: Text.PlainText; text: rawToggle.text; color: Theme.muted
                                            font.pixelSize: Theme.fontCaption }
                        Accessible.name: inputView.raw ? "Show the input as fields" : "Show the raw input"
                        onClicked: inputView.raw = !inputView.raw
                    }
                }
                Repeater {  // each diff the tool sent, as a real unified diff
                    model: card.tool.diffs
                    DiffView { objects: card.objects; required property string modelData; required property int index
                               diff: modelData; Layout.fillWidth: true
                               showAll: card.tool.wholeDiffs.indexOf(index) >= 0
                               onShowAllRequested: card.objects.timeline.togglePart(card.rowIndex, "whole:" + card.tool.id + ":" + index) }
                }
                TextEdit {  // output that is Markdown, rendered (tool_details.py decides)
                    objectName: "toolOutputRendered"
                    visible: card.tool.outputHtml !== ""
                    Layout.fillWidth: true
                    Layout.preferredWidth: 0  // never its natural width: that lays the whole text out again unwrapped
                    text: visible ? card.objects.app.proseStyle + card.tool.outputHtml : ""
                    textFormat: TextEdit.RichText
                    onTextChanged: { card.objects.wholeText.keep(this); if (card.objects.search.isActive) card.objects.search.watch(this) }
                    readOnly: true; selectByMouse: true
                    wrapMode: TextEdit.Wrap
                    color: Theme.text
                    font.pixelSize: Theme.fontSmall
                    onLinkActivated: (link) => card.objects.conversation.openLink(link)
                    HoverHandler { enabled: parent.hoveredLink !== ""; cursorShape: Qt.PointingHandCursor }
                }
                Rectangle {  // any other output as written, in a sunken well
                    objectName: "toolOutputWell"
                    visible: card.tool.output !== "" && card.tool.outputHtml === "" && !card.tool.terminal && !card.tool.console
                    Layout.fillWidth: true
                    implicitHeight: outputText.implicitHeight + 2 * Theme.spaceSmall
                    radius: Theme.radiusSmall
                    color: Theme.sunken
                    TextEdit {
                        id: outputText
                        objectName: "toolOutput"
                        x: Theme.pad; y: Theme.spaceSmall
                        width: parent.width - 2 * Theme.pad
                        text: card.tool.output.replace(/\s+$/, "")  // no blank line closing the well
                        textFormat: TextEdit.PlainText
                        onTextChanged: { card.objects.wholeText.keep(this); if (card.objects.search.isActive) card.objects.search.watch(this) }  // drawn whole (see TextBlocks.qml)
                        readOnly: true; selectByMouse: true
                        font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontSmall
                        color: Theme.text
                        wrapMode: TextEdit.WrapAnywhere
                    }
                }
            }
        }
        Rectangle {  // the permission the call waits for: its footer, amber while it waits, a line once answered
            objectName: "permissionCard"
            visible: !!card.tool.permission
            Layout.fillWidth: true
            Layout.leftMargin: card.framed ? 0 : Theme.spaceHuge  // under a quiet row's title
            implicitHeight: footer.item ? footer.item.implicitHeight + 2 * footer.y : 0
            radius: Theme.radiusControl
            color: card.asking ? Theme.warningSubtle : "transparent"
            Loader {
                id: footer
                active: !!card.tool.permission
                x: card.asking ? Theme.gap : 0; y: card.asking ? Theme.gap : 0
                width: parent.width - 2 * x
                sourceComponent: PermissionBody { objects: card.objects; permission: card.tool.permission; showTitle: false }
            }
        }
    }
}
