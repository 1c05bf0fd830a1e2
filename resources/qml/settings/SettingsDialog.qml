import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../agents"
import "../common"

// Settings (Ctrl+, or the platform's Preferences key): each change applies at once and is saved to
// the user's config file by the main side; a save that could not happen is said here.
Dialog {
    id: root
    objectName: "settingsDialog"
    parent: Overlay.overlay
    anchors.centerIn: parent
    width: Math.min(560, parent ? parent.width - 2 * Theme.spaceHuge : 560)
    modal: true
    focus: true
    title: "Settings"
    padding: Theme.pad * 2
    Accessible.name: "Settings"
    header: Label {
        textFormat: Text.PlainText
        text: root.title
        color: Theme.text
        font.bold: true; font.pixelSize: Theme.fontTitle
        padding: Theme.pad * 2; bottomPadding: 0
    }
    Overlay.modal: Rectangle { color: Theme.scrim }
    onOpened: schemeBox.forceActiveFocus()

    ScrollView {  // the sections scroll when the window is too short for them all
        id: scroller
        objectName: "settingsScroll"
        anchors.fill: parent
        implicitHeight: Math.min(sections.implicitHeight,
                                 (root.parent ? root.parent.height : 700) - 200)
        contentWidth: availableWidth
        clip: true
        // scroll just enough to show `item` whole (a section opened or a message said below the fold),
        // again while it grows (the layout settles after it is shown)
        property Item revealing: null
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
                textFormat: Text.PlainText
                text: "Appearance"
                font.bold: true; font.pixelSize: Theme.fontBody
                color: Theme.text
                Accessible.role: Accessible.Heading
            }
            GridLayout {
                columns: 2
                columnSpacing: Theme.pad
                rowSpacing: Theme.gap
                Layout.fillWidth: true

                Label { textFormat: Text.PlainText; text: "Theme"; color: Theme.text }
                ComboBox {
                    id: schemeBox
                    delegate: PlainChoice { box: schemeBox }
                    objectName: "settingsColorScheme"
                    Layout.fillWidth: true
                    model: settings.colorSchemes
                    textRole: "label"
                    valueRole: "value"
                    currentIndex: settings.colorSchemes.findIndex(c => c.value === settings.colorScheme)
                    onActivated: (index) => settings.setColorScheme(settings.colorSchemes[index].value)
                    Accessible.name: "Theme: " + currentText
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

                Label { textFormat: Text.PlainText; text: "Motion"; color: Theme.text }
                Switch {
                    id: motionSwitch
                    objectName: "settingsReducedMotion"
                    text: "Reduce animations"
                    checked: settings.reducedMotion
                    onToggled: settings.setReducedMotion(checked)
                    Accessible.name: "Reduce animations"
                    KeyNavigation.tab: notifySwitch
                }
            }

            Label {
                textFormat: Text.PlainText
                text: "Notifications"
                font.bold: true; font.pixelSize: Theme.fontBody
                color: Theme.text
                Accessible.role: Accessible.Heading
            }
            Switch {
                id: notifySwitch
                objectName: "settingsNotify"
                text: "Tell me when an agent needs me or is done while ClawQt is in the background"
                checked: settings.notify
                onToggled: settings.setNotify(checked)
                Accessible.name: text
                KeyNavigation.tab: addFolderButton
                Layout.fillWidth: true
            }

            Label {
                textFormat: Text.PlainText
                text: "Folders"
                font.bold: true; font.pixelSize: Theme.fontBody
                color: Theme.text
                Accessible.role: Accessible.Heading
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

            Label {
                textFormat: Text.PlainText
                text: "Terminals"
                font.bold: true; font.pixelSize: Theme.fontBody
                color: Theme.text
                Accessible.role: Accessible.Heading
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
                next: closeButton
                onReveal: (item) => scroller.reveal(item)
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

    footer: DialogButtonBox {
        background: Item {}
        Button {
            id: closeButton
            objectName: "settingsClose"
            text: "Close"
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
            Accessible.name: "Close settings"
        }
    }
}
