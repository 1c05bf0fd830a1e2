import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Agent name and state, session modes and config options (the `model` one first), usage, the
// question-directory toggle, the terminal panel's, and the chat's menu (find, export).
ToolBar {
    id: root
    signal toggleDirectory()
    signal toggleTerminals()
    signal openSettings()
    signal openFind()
    objectName: "headerBar"
    property bool directoryOpen: false
    // a narrow header drops words that icons and tooltips already say, so nothing is cut off
    readonly property bool narrow: width < Theme.narrowHeader
    RowLayout {
        objectName: "headerRow"
        anchors.fill: parent
        anchors.leftMargin: Theme.pad
        anchors.rightMargin: Theme.pad
        spacing: Theme.gap
        Rectangle {
            width: 10; height: 10; radius: width / 2
            color: agent.state === "ready" ? Theme.success
                 : agent.state === "working" || agent.state === "starting" || agent.state === "sign-in" ? Theme.warning
                 : Theme.danger
        }
        Label {
            textFormat: Text.PlainText
            objectName: "agentStateLabel"
            text: agent.label + (agents.shownTarget ? " \u00b7 " + agents.shownTarget : "")
                  + " \u00b7 " + (agent.state === "starting" ? "starting agent\u2026"
                                 : agent.state === "sign-in" ? "sign-in needed" : agent.state)
            color: Theme.text
            elide: Text.ElideRight  // its whole width, given up only when the header has no more room
            Layout.preferredWidth: implicitWidth
            Layout.minimumWidth: Theme.avatarLarge
            Accessible.name: "Agent " + agent.label + (agents.shownTarget ? ", " + agents.shownTarget : "") + ", "
                             + (agent.state === "sign-in" ? "sign-in needed" : agent.state)
        }
        Label { textFormat: Text.PlainText; text: sessionHeader.title; color: Theme.muted; elide: Text.ElideRight; Layout.fillWidth: true
                Layout.minimumWidth: 0 }
        ComboBox {
            id: modeSelect
            objectName: "modeSelect"
            visible: sessionHeader.modes.length > 0
            delegate: PlainChoice { box: modeSelect }
            model: sessionHeader.modes
            textRole: "name"
            valueRole: "id"
            currentIndex: sessionHeader.modes.findIndex(m => m.id === sessionHeader.currentMode)
            onActivated: (index) => sessionHeader.setMode(sessionHeader.modes[index].id)
            Accessible.name: "Session mode"
        }
        Repeater {  // the model picker stays in the header; other options live in the Options popup
            model: sessionHeader.configOptions.filter(o => o.category === "model")
            Loader {
                required property var modelData
                sourceComponent: modelData.type === "boolean" ? boolOption : selectOption
                property var option: modelData
            }
        }
        ToolButton {
            id: optionsButton
            objectName: "optionsButton"
            readonly property var others: sessionHeader.configOptions.filter(o => o.category !== "model")
            visible: others.length > 0
            text: "Options"
            contentItem: IconLabel { icon: "sliders-horizontal"; label: "Options" }
            Accessible.name: "Session options"
            onClicked: optionsPopup.open()
            Popup {
                id: optionsPopup
                y: parent.height
                x: parent.width - width
                margins: Theme.gap  // kept inside the window, however long the agent's names are
                padding: Theme.pad
                ColumnLayout {
                    Repeater {
                        model: optionsButton.others
                        RowLayout {
                            required property var modelData
                            Label { textFormat: Text.PlainText; text: modelData.name; color: Theme.text; elide: Text.ElideRight
                                    Layout.preferredWidth: 160; Layout.maximumWidth: 160 }
                            Loader {
                                sourceComponent: modelData.type === "boolean" ? boolOption : selectOption
                                property var option: modelData
                            }
                        }
                    }
                }
            }
        }
        Meter {
            id: usageMeter
            objectName: "usageMeter"
            visible: sessionHeader.usage.text !== undefined
            Layout.preferredWidth: 80
            Layout.alignment: Qt.AlignVCenter
            value: sessionHeader.usage.fraction || 0
            fillColour: value > 0.9 ? Theme.danger : value > 0.75 ? Theme.warning : Theme.accent
            PlainToolTip { visible: usageMeter.hovered; text: "Context: " + (sessionHeader.usage.text || "") }
            Accessible.name: "Context used " + (sessionHeader.usage.text || "")
        }
        Label { textFormat: Text.PlainText; visible: sessionHeader.usage.text !== undefined && !root.narrow; text: sessionHeader.usage.text || ""; color: Theme.muted
                font.pixelSize: Theme.fontCaption; elide: Text.ElideRight; Layout.maximumWidth: Theme.filterWidth }
        ToolButton {
            objectName: "questionToggle"
            text: "Questions"
            contentItem: IconLabel { icon: "list"; label: root.narrow ? "" : "Questions"
                                     color: parent.enabled ? Theme.text : Theme.muted }
            checkable: true
            checked: root.directoryOpen
            enabled: conversation.questions.length + conversation.questionsHidden >= 2
            onClicked: root.toggleDirectory()
            Accessible.name: "Question directory"
            ToolTip.visible: hovered
            ToolTip.text: "Jump to one of your questions (Ctrl+Shift+Q)"
        }
        ToolButton {
            objectName: "terminalToggle"
            text: "Terminal"
            contentItem: IconLabel { objectName: "terminalToggleLabel"; icon: "terminal"
                                     color: userTerminals.participating ? Theme.success : Theme.text
                                     label: root.narrow ? "" : userTerminals.participating ? "Terminal \u00b7 agent participating"
                                                                                          : "Terminal" }
            checkable: true
            checked: userTerminals.panelOpen
            onClicked: { checked = Qt.binding(() => userTerminals.panelOpen); root.toggleTerminals() }
            Accessible.name: (userTerminals.panelOpen ? "Hide the terminal panel" : "Show the terminal panel")
                             + (userTerminals.participating ? " (an agent is participating in a terminal)" : "")
            ToolTip.visible: hovered
            ToolTip.text: "Your terminals (Ctrl+`)"
        }
        ToolButton {
            objectName: "chatMenuButton"
            contentItem: IconLabel { icon: "ellipsis-vertical"; color: Theme.text }
            Accessible.name: "Chat menu"
            ToolTip.visible: hovered
            ToolTip.text: "Find, export, protocol inspector"
            onClicked: chatMenu.popup(this, 0, height)
            Menu {
                id: chatMenu
                objectName: "chatMenu"
                MenuItem { objectName: "menuFind"; text: "Find in chat…"; onTriggered: root.openFind()
                           contentItem: ShortcutLabel { label: parent.text; keys: "Ctrl+F" } }
                MenuItem { objectName: "menuExport"; text: "Export as Markdown…"
                           enabled: session.sessionKey !== "" && !chatExport.busy
                           onTriggered: chatExport.exportChat()
                           contentItem: ShortcutLabel { label: parent.text; keys: "Ctrl+Shift+E"; enabled: parent.enabled } }
                MenuItem { objectName: "menuInspector"; text: inspector.isOpen ? "Hide protocol inspector" : "Protocol inspector"
                           onTriggered: inspector.setOpen(!inspector.isOpen)
                           contentItem: ShortcutLabel { label: parent.text; keys: "F12" } }
            }
        }
        ToolButton {
            objectName: "settingsButton"
            contentItem: IconLabel { icon: "settings"; color: Theme.text }
            onClicked: root.openSettings()
            Accessible.name: "Settings"
            ToolTip.visible: hovered
            ToolTip.text: "Settings (Ctrl+,)"
        }
    }
    Component {
        id: selectOption
        ComboBox {
            id: optionSelect
            objectName: "config_" + option.id
            delegate: PlainChoice { box: optionSelect }
            model: option.choices
            textRole: "name"
            valueRole: "value"
            currentIndex: option.choices.findIndex(c => c.value === String(option.currentValue))
            onActivated: (index) => sessionHeader.setConfigOption(option.id, option.choices[index].value)
            Accessible.name: option.category === "model" ? "Model" : option.name
            PlainToolTip { visible: optionSelect.hovered; text: option.name }
        }
    }
    Component {
        id: boolOption
        Switch {
            id: optionSwitch
            objectName: "config_" + option.id
            text: option.name
            implicitWidth: Math.min(Theme.filterWidth, implicitContentWidth + leftPadding + rightPadding)
            contentItem: Text {
                textFormat: Text.PlainText
                leftPadding: optionSwitch.indicator.width + optionSwitch.spacing
                text: optionSwitch.text; font: optionSwitch.font; color: optionSwitch.palette.text
                elide: Text.ElideRight; verticalAlignment: Text.AlignVCenter
            }
            checked: option.currentValue === true
            onToggled: sessionHeader.setConfigOption(option.id, checked)
        }
    }
}
