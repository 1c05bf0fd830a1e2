import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Search every chat (Ctrl+Shift+F): every agent's chats, live and loaded, as the index holds them.
// Results come as the user types, grouped by chat (its agent, folder and time), the words found marked;
// filters narrow by agent, folder, kind of text and time. Up/Down move between hits, Enter opens the
// chat at the hit (find in the chat then marks the word; read-only from the index when its agent is
// gone), Shift+Enter reads it from the index without its agent, Esc closes.
Popup {
    id: root
    objectName: "searchPane"
    parent: Overlay.overlay
    x: Math.round((parent.width - width) / 2)
    y: Math.round(parent.height / 8)
    width: Math.min(640, parent.width - 2 * Theme.spaceHuge)
    height: Math.min(560, parent.height - y - Theme.spaceHuge)
    modal: true
    focus: true
    padding: Theme.pad
    Overlay.modal: Rectangle { color: Theme.scrim }
    readonly property color mark: Theme.searchMatch  // the words found, marked as find in the chat marks
    onMarkChanged: searchAll.setMarkColour(mark)
    onOpened: { searchAll.setMarkColour(mark); searchAll.setOpen(true); field.forceActiveFocus(); field.selectAll() }
    onClosed: searchAll.setOpen(false)

    function move(step) {  // to the next hit up or down, over the chats' headings
        const rows = searchAll.rows  // read once: each read is a copy of the list
        let at = results.currentIndex
        for (let i = 0; i < rows.length; i++) {
            at = Math.max(0, Math.min(rows.length - 1, at + step))
            if (rows[at].type === "hit") { results.currentIndex = at; return }
        }
    }
    function openCurrent(fromIndex) {
        const row = results.currentIndex >= 0 ? searchAll.rows[results.currentIndex] : undefined
        if (!row || row.type !== "hit") return
        close()
        if (fromIndex) searchAll.readHit(row.key, row.needle, row.item)
        else searchAll.openHit(row.key, row.needle, row.item)
    }
    Connections {
        target: searchAll
        function onResultsChanged() { results.currentIndex = -1; root.move(1) }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.gap
        Accessible.role: Accessible.Dialog
        Accessible.name: "Search every chat"
        TextField {
            id: field
            objectName: "searchAllField"
            Layout.fillWidth: true
            placeholderText: "Search every chat"
            text: searchAll.query
            selectByMouse: true
            leftPadding: searchIcon.x + searchIcon.width + Theme.spaceSmall
            onTextEdited: searchAll.setQuery(text)
            Accessible.name: "Search every chat"
            Accessible.description: searchAll.summary
            Keys.onDownPressed: root.move(1)
            Keys.onUpPressed: root.move(-1)
            Keys.onReturnPressed: (event) => root.openCurrent(event.modifiers & Qt.ShiftModifier)
            Keys.onEnterPressed: (event) => root.openCurrent(event.modifiers & Qt.ShiftModifier)
            Icon { id: searchIcon; icon: "search"; color: Theme.muted; x: Theme.gap
                   anchors.verticalCenter: parent.verticalCenter; Accessible.ignored: true }
        }
        RowLayout {  // the filters
            Layout.fillWidth: true
            spacing: Theme.gap
            Segmented {
                objectName: "searchAllKind"
                Accessible.name: "Kind of text"
                choices: [{ value: "all", label: "All" }, { value: "messages", label: "Messages" },
                          { value: "tools", label: "Tool output" }, { value: "files", label: "Files" }]
                value: searchAll.filters.kind
                onChosen: (value) => searchAll.setFilter("kind", value)
            }
            ComboBox {
                id: agentFilter
                objectName: "searchAllAgent"
                delegate: PlainChoice { box: agentFilter }  // an agent's name, as written
                Layout.fillWidth: true
                Accessible.name: "Agent"
                model: ["Every agent"].concat(searchAll.agents)
                currentIndex: Math.max(0, searchAll.agents.indexOf(searchAll.filters.agent) + 1)
                onActivated: (index) => searchAll.setFilter("agent", index > 0 ? searchAll.agents[index - 1] : "")
            }
            ComboBox {
                id: folderFilter
                objectName: "searchAllFolder"
                delegate: PlainChoice { box: folderFilter }  // a folder's path, as written
                Layout.fillWidth: true
                Accessible.name: "Folder"
                visible: searchAll.folders.length > 1
                model: ["Every folder"].concat(searchAll.folders)
                currentIndex: Math.max(0, searchAll.folders.indexOf(searchAll.filters.folder) + 1)
                onActivated: (index) => searchAll.setFilter("folder", index > 0 ? searchAll.folders[index - 1] : "")
                displayText: currentIndex > 0 ? currentText.split("/").pop() : currentText
            }
            ComboBox {
                objectName: "searchAllWhen"
                Accessible.name: "When"
                textRole: "label"
                valueRole: "value"
                model: [{ value: "any", label: "Any time" }, { value: "day", label: "Today" },
                        { value: "week", label: "Past week" }, { value: "month", label: "Past month" },
                        { value: "year", label: "Past year" }]
                currentIndex: Math.max(0, indexOfValue(searchAll.filters.when))
                onActivated: searchAll.setFilter("when", currentValue)
            }
        }
        Text {
            objectName: "searchAllSummary"
            textFormat: Text.PlainText
            text: searchAll.busy && searchAll.rows.length === 0 ? "Searching\u2026" : searchAll.summary
            visible: text !== ""
            color: Theme.muted
            font.pixelSize: Theme.fontSmall
        }
        ListView {
            id: results
            objectName: "searchAllResults"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: searchAll.rows
            highlightMoveDuration: 0
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar {}
            delegate: Loader {
                id: entry
                required property var modelData
                required property int index
                width: results.width
                sourceComponent: modelData.type === "chat" ? chatHeading : hitRow
            }
        }
        Text {
            visible: searchAll.query === ""
            textFormat: Text.PlainText
            text: "Words said in any chat with any agent: messages, answers, tool output and file names. A chat is "
                  + "in the index once it was shown here; an agent's older chats are read when you ask:"
            color: Theme.muted
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
        RowLayout {  // an agent's every chat indexed (through a connection of its own), with progress
            visible: searchAll.query === "" || searchAll.indexing
            spacing: Theme.gap
            Layout.fillWidth: true
            ComboBox {
                id: indexAgent
                objectName: "searchIndexAgent"
                Accessible.name: "The agent whose chats to index"
                enabled: !searchAll.indexing
                model: searchAll.indexChoices
                textRole: "name"
                valueRole: "id"
                delegate: PlainChoice { box: indexAgent }  // an agent's name, as written
                Layout.fillWidth: true
            }
            Button {
                objectName: "searchIndexAgentButton"
                text: searchAll.indexing ? "Stop" : "Index its chats"
                Accessible.name: searchAll.indexing ? "Stop indexing" : "Index every chat of " + indexAgent.currentText
                onClicked: searchAll.indexing ? searchAll.stopIndexing() : searchAll.indexAgent(indexAgent.currentValue)
            }
        }
        Text {
            objectName: "searchIndexProgress"
            visible: text !== ""
            textFormat: Text.PlainText
            text: searchAll.indexProgress
            color: Theme.muted; font.pixelSize: Theme.fontSmall
            wrapMode: Text.Wrap; Layout.fillWidth: true
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
    }

    Component {
        id: chatHeading
        RowLayout {
            property var row: parent ? parent.modelData : ({})
            objectName: "searchAllChat"
            spacing: Theme.gap
            Label { textFormat: Text.PlainText; text: row.title || ""; font.bold: true; color: Theme.text
                    elide: Text.ElideRight; Layout.fillWidth: true; topPadding: Theme.gap }
            Label { textFormat: Text.PlainText; text: [row.agent, row.when].filter(s => !!s).join(" \u00b7 ")
                    color: Theme.muted; font.pixelSize: Theme.fontCaption; topPadding: Theme.gap }
        }
    }
    Component {
        id: hitRow
        ItemDelegate {
            id: hit
            property var row: parent ? parent.modelData : ({})
            property int rowIndex: parent ? parent.index : -1
            objectName: "searchAllHit"
            highlighted: results.currentIndex === rowIndex
            Accessible.name: row.kind + ": " + snippet.text.replace(/<[^>]*>/g, "")
            onClicked: { results.currentIndex = rowIndex; root.openCurrent(false) }
            background: Rectangle { radius: Theme.radiusSmall
                                    color: hit.highlighted ? Theme.selected : (hit.hovered ? Theme.hover : "transparent") }
            contentItem: RowLayout {
                spacing: Theme.gap
                Label { textFormat: Text.PlainText; text: hit.row.kind || ""; color: Theme.muted
                        font.pixelSize: Theme.fontCaption; Layout.preferredWidth: 72; Layout.alignment: Qt.AlignTop }
                Label {
                    id: snippet
                    objectName: "searchAllSnippet"
                    textFormat: Text.RichText  // escaped in Python; only the marks are markup
                    text: hit.row.html || ""
                    color: Theme.text2
                    wrapMode: Text.Wrap
                    maximumLineCount: 2
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                    Layout.preferredWidth: 0
                }
                Label { textFormat: Text.PlainText; text: hit.row.when || ""; color: Theme.muted
                        font.pixelSize: Theme.fontCaption; Layout.alignment: Qt.AlignTop }
            }
        }
    }
}
