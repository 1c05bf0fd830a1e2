import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../agents"
import "../common"
import "../mcp_servers"
import "../rules"
import "../search"
import "../usage"

// Settings (Ctrl+, or the platform's Preferences key): a sheet with its sections listed on the left
// (a click scrolls to one; the one read now is marked) and all of them in one scrolled column on the
// right, so Tab walks every control in order. Each change applies at once and is saved to the user's
// config file by the main side; a save that could not happen is said here.
Dialog {
    id: root
    objectName: "settingsDialog"
    parent: Overlay.overlay
    anchors.centerIn: parent
    width: Math.min(Theme.settingsWidth, parent ? parent.width - 2 * Theme.spaceHuge : Theme.settingsWidth)
    modal: true
    focus: true
    title: "Settings"
    Accessible.name: "Settings"
    onOpened: { schemeBox.forceActiveFocus(); agentRegistry.load() }
    // the sections as the list on the left names them, each with the heading it scrolls to
    readonly property var sectionList: [
        { name: "Appearance", heading: appearanceHeading }, { name: "Notifications", heading: notificationsHeading },
        { name: "Folders", heading: foldersHeading }, { name: "Terminals", heading: terminalsHeading },
        { name: "Agents", heading: agentsSection }, { name: "Permissions", heading: permissionsSection },
        { name: "MCP servers", heading: mcpSection }, { name: "Usage", heading: usageSection },
        { name: "Search", heading: searchSection }
    ]
    property int chosenSection: -1  // the one clicked (it may be too near the end to scroll to the top)
    function showSection(name) {  // as a click on its name in the list, once the sheet is laid out
        const index = sectionList.findIndex(section => section.name === name)
        if (index >= 0) Qt.callLater(() => { scroller.scrollTo(sectionList[index].heading); chosenSection = index })
    }
    readonly property int currentSection: {
        if (chosenSection >= 0) return chosenSection
        const top = scroller.contentItem.contentY + Theme.pad
        let current = 0
        for (let i = 0; i < sectionList.length; ++i)
            if (sectionList[i].heading && sectionList[i].heading.y <= top) current = i
        return current
    }

    RowLayout {
        anchors.fill: parent
        spacing: Theme.spaceHuge
        ColumnLayout {  // the sections, a click away
            objectName: "settingsNav"
            Layout.alignment: Qt.AlignTop
            Layout.preferredWidth: Theme.settingsNavWidth
            spacing: Theme.spaceHair
            Repeater {
                model: root.sectionList
                ItemDelegate {
                    required property var modelData
                    required property int index
                    objectName: "settingsNav_" + modelData.name
                    text: modelData.name
                    contentItem: ButtonText { horizontalAlignment: Text.AlignLeft; color: Theme.text }
                    highlighted: root.currentSection === index
                    focusPolicy: Qt.NoFocus  // Tab walks the controls; the list is for the pointer
                    Layout.fillWidth: true
                    onClicked: { scroller.scrollTo(modelData.heading); root.chosenSection = index }
                }
            }
        }
        ScrollView {  // the sections scroll when the window is too short for them all
            id: scroller
            objectName: "settingsScroll"
            Layout.fillWidth: true
            Layout.fillHeight: true
            implicitHeight: Math.min(sections.implicitHeight,
                                     (root.parent ? root.parent.height : 700) - 200)
            contentWidth: availableWidth
            clip: true
            // scroll just enough to show `item` whole (a section opened or a message said below the fold),
            // again while it grows (the layout settles after it is shown)
            property Item revealing: null
            function scrollTo(item) {  // the section's heading at the top, as far as the column goes
                const flick = scroller.contentItem
                flick.contentY = Math.max(0, Math.min(item.mapToItem(sections, 0, 0).y, flick.contentHeight - flick.height))
            }
            function reveal(item) {
                revealing = item
                const flick = scroller.contentItem
                const top = item.mapToItem(sections, 0, 0).y
                const bottom = top + item.height + Theme.gap
                if (bottom > flick.contentY + flick.height)
                    flick.contentY = Math.max(0, Math.min(bottom - flick.height, flick.contentHeight - flick.height))
                if (top < flick.contentY)
                    flick.contentY = top
            }
            Connections {
                target: scroller.contentItem
                function onContentHeightChanged() { if (scroller.revealing) scroller.reveal(scroller.revealing) }
                function onMovementStarted() { root.chosenSection = -1 }  // the user scrolls: the place says
            }
            Connections {
                target: scroller.revealing
                function onHeightChanged() { Qt.callLater(scroller.reveal, scroller.revealing) }
            }
            ColumnLayout {
                id: sections
                width: scroller.availableWidth
                spacing: Theme.gap * 1.5

                Label {
                    id: appearanceHeading
                    objectName: "settingsSection_Appearance"
                    textFormat: Text.PlainText
                    text: "Appearance"
                    font.weight: Font.DemiBold; font.pixelSize: Theme.fontTitle
                    color: Theme.text
                    Accessible.role: Accessible.Heading
                    Layout.topMargin: Theme.pad
                }
                GridLayout {
                    columns: 2
                    columnSpacing: Theme.pad
                    rowSpacing: Theme.gap
                    Layout.fillWidth: true

                    Label { textFormat: Text.PlainText; text: "Theme"; color: Theme.text }
                    Segmented {
                        id: schemeBox
                        objectName: "settingsColorScheme"
                        choices: settings.colorSchemes
                        value: settings.colorScheme
                        onChosen: (value) => settings.setColorScheme(value)
                        Accessible.name: "Theme: " + (current >= 0 ? choices[current].label : "")
                        KeyNavigation.tab: accentPicker
                    }

                    Label { textFormat: Text.PlainText; text: "Accent"; color: Theme.text }
                    AccentPicker {
                        id: accentPicker
                        objectName: "settingsAccent"
                        choices: settings.accents
                        value: settings.accent
                        onChosen: (value) => settings.setAccent(value)
                        Accessible.name: "Accent: " + (current >= 0 ? choices[current].label : "")
                        KeyNavigation.tab: scaleBox
                    }

                    Label { textFormat: Text.PlainText; text: "Text size"; color: Theme.text }
                    ComboBox {
                        id: scaleBox
                        delegate: PlainChoice { box: scaleBox }
                        objectName: "settingsFontScale"
                        Layout.fillWidth: true
                        model: settings.fontScales
                        textRole: "label"
                        valueRole: "value"
                        currentIndex: settings.fontScales.findIndex(c => Math.abs(c.value - settings.fontScale) < 0.001)
                        onActivated: (index) => settings.setFontScale(settings.fontScales[index].value)
                        Accessible.name: "Text size: " + currentText
                        KeyNavigation.tab: motionSwitch
                    }

                    Label { textFormat: Text.PlainText; text: "Reduce animations"; color: Theme.text }
                    Switch {
                        id: motionSwitch
                        objectName: "settingsReducedMotion"
                        Layout.alignment: Qt.AlignRight
                        checked: settings.reducedMotion
                        onToggled: settings.setReducedMotion(checked)
                        Accessible.name: "Reduce animations"
                        KeyNavigation.tab: notifySwitch
                    }
                }

                Label {
                    id: notificationsHeading
                    objectName: "settingsSection_Notifications"
                    textFormat: Text.PlainText
                    text: "Notifications"
                    font.weight: Font.DemiBold; font.pixelSize: Theme.fontTitle
                    color: Theme.text
                    Accessible.role: Accessible.Heading
                    Layout.topMargin: Theme.pad
                }
                RowLayout {
                    Layout.fillWidth: true
                    spacing: Theme.pad
                    Label {
                        textFormat: Text.PlainText
                        text: "Tell me when an agent needs me or is done while ClawQt is in the background"
                        color: Theme.text
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }
                    Switch {
                        id: notifySwitch
                        objectName: "settingsNotify"
                        checked: settings.notify
                        onToggled: settings.setNotify(checked)
                        Accessible.name: "Tell me when an agent needs me or is done while ClawQt is in the background"
                        KeyNavigation.tab: addFolderButton
                    }
                }

                Label {
                    id: foldersHeading
                    objectName: "settingsSection_Folders"
                    textFormat: Text.PlainText
                    text: "Folders"
                    font.weight: Font.DemiBold; font.pixelSize: Theme.fontTitle
                    color: Theme.text
                    Accessible.role: Accessible.Heading
                    Layout.topMargin: Theme.pad
                }
                Label {
                    textFormat: Text.PlainText
                    text: settings.folders.length ? "Agents may also read and write in these folders, beside each chat's own:"
                                                  : "Agents read and write only in each chat's own folder."
                    color: Theme.muted; font.pixelSize: Theme.fontSmall
                    wrapMode: Text.Wrap; Layout.fillWidth: true
                }
                Repeater {
                    model: settings.folders
                    delegate: RowLayout {
                        id: folderRow
                        required property var modelData
                        required property int index
                        Layout.fillWidth: true
                        Label { textFormat: Text.PlainText; text: folderRow.modelData; font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontSmall
                                color: Theme.text; elide: Text.ElideMiddle; Layout.fillWidth: true }
                        ToolButton {
                            objectName: "settingsRemoveFolder"
                            contentItem: IconLabel { icon: "trash"; color: Theme.muted }
                            onClicked: settings.removeFolder(folderRow.index)
                            Accessible.name: "Remove the folder " + folderRow.modelData
                            ToolTip.visible: hovered
                            ToolTip.text: "Remove"
                        }
                    }
                }
                Button {
                    id: addFolderButton
                    objectName: "settingsAddFolder"
                    contentItem: IconLabel { icon: "folder-plus"; label: "Add a folder\u2026"; color: Theme.text }
                    onClicked: settings.chooseFolder()
                    Accessible.name: "Add a folder the agents may use"
                    KeyNavigation.tab: portField
                }
                ProjectSettings {  // the shown chat's folder's .clawqt.json, read again each time Settings opens
                    opened: root.opened
                    Layout.fillWidth: true
                }

                Label {
                    id: terminalsHeading
                    objectName: "settingsSection_Terminals"
                    textFormat: Text.PlainText
                    text: "Terminals"
                    font.weight: Font.DemiBold; font.pixelSize: Theme.fontTitle
                    color: Theme.text
                    Accessible.role: Accessible.Heading
                    Layout.topMargin: Theme.pad
                }
                RowLayout {
                    Layout.fillWidth: true
                    spacing: Theme.pad
                    Label { textFormat: Text.PlainText; text: "Port of the terminal tools"; color: Theme.text }
                    TextField {
                        id: portField
                        objectName: "settingsTerminalPort"
                        text: settings.terminalToolsPort
                        placeholderText: "ClawQt picks"
                        inputMethodHints: Qt.ImhDigitsOnly
                        validator: IntValidator { bottom: 0; top: 65535 }
                        Layout.preferredWidth: 120
                        onEditingFinished: settings.setTerminalToolsPort(text)
                        Accessible.name: "Port of the terminal tools: " + (text || "ClawQt picks")
                        KeyNavigation.tab: agentsSection.first
                    }
                    Label {
                        textFormat: Text.PlainText
                        text: "on 127.0.0.1, from the next start (empty: a free one)"
                        color: Theme.muted; font.pixelSize: Theme.fontSmall
                        wrapMode: Text.Wrap; Layout.fillWidth: true
                    }
                }

                SettingsAgents {
                    id: agentsSection
                    Layout.fillWidth: true
                    next: permissionsSection.first
                    onReveal: (item) => scroller.reveal(item)
                }

                RulesSection {
                    id: permissionsSection
                    Layout.fillWidth: true
                    next: mcpSection.first
                }

                McpServersSection {
                    id: mcpSection
                    Layout.fillWidth: true
                    next: usageSection.first
                }

                UsageSection {
                    id: usageSection
                    Layout.fillWidth: true
                    next: searchSection.first
                }

                SearchSettings {
                    id: searchSection
                    Layout.fillWidth: true
                    next: closeButton
                }

                Label {
                    textFormat: Text.PlainText
                    objectName: "settingsProblem"
                    visible: text !== ""
                    text: settings.problem
                    wrapMode: Text.Wrap
                    color: Theme.danger
                    Layout.fillWidth: true
                    Accessible.role: Accessible.AlertMessage
                    Accessible.name: text
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "settingsLocation"
                    text: "Settings are kept in " + settings.location
                          + (settings.saving || agentSettings.saving ? " (saving\u2026)" : "") + "."
                    wrapMode: Text.Wrap
                    color: Theme.muted
                    font.pixelSize: Theme.fontSmall
                    Layout.fillWidth: true
                }
            }
        }

    }

    footer: DialogButtonBox {
        Button {
            id: closeButton
            objectName: "settingsClose"
            text: "Close"
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
            Accessible.name: "Close settings"
        }
    }
}
