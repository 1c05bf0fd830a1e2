import QtQuick
import QtQuick.Controls
import QtQml.Models
import "../cards"
import "../common"
import "../elicitation"

// The virtualized conversation: one ListView over the timeline model, delegates chosen by row kind.
// Sticks to the bottom while streaming unless the user scrolled up; then "Jump to latest" shows.
Item {
    id: root
    required property QtObject objects  // handed to every row (row_objects.py)
    property alias list: list
    property bool stickToBottom: true
    readonly property bool directoryOpen: conversation.directoryOpen  // per chat: `conversation` keeps it
    readonly property bool empty: welcome.visible  // the window then holds the composer mid-height

    ListView {
        id: list
        objectName: "timeline"
        anchors.fill: parent
        model: timeline
        clip: true
        reuseItems: true
        cacheBuffer: 400
        boundsBehavior: Flickable.StopAtBounds
        // No current row: ListView otherwise keeps an invisible highlight item gliding after the current
        // row whenever rows above it grow, and every step of that glide asks for a frame.
        currentIndex: -1
        highlightFollowsCurrentItem: false
        verticalLayoutDirection: ListView.BottomToTop  // the model gives newest rows first
        ScrollBar.vertical: ScrollBar { id: scrollBar }
        Accessible.name: "Conversation"
        delegate: DelegateChooser {
            role: "kind"
            DelegateChoice { roleValue: "user"; UserRow { objects: root.objects } }
            DelegateChoice { roleValue: "assistant-text"; AssistantRow { objects: root.objects } }
            DelegateChoice { roleValue: "thought"; ThoughtRow { objects: root.objects } }
            DelegateChoice { roleValue: "tool"; ToolRow { objects: root.objects } }
            DelegateChoice { roleValue: "tool-group"; ToolRow { objects: root.objects } }
            DelegateChoice { roleValue: "permission"; PermissionRow { objects: root.objects } }
            DelegateChoice { roleValue: "elicitation"; QuestionRow { objects: root.objects } }
            DelegateChoice { roleValue: "plan"; PlanRow { objects: root.objects } }
            DelegateChoice { roleValue: "proposal"; ProposalCard { objects: root.objects } }
            DelegateChoice { roleValue: "user-attachments"; AttachmentsRow { objects: root.objects } }
            DelegateChoice { roleValue: "turn-attachments"; AttachmentsRow { objects: root.objects } }
            DelegateChoice { roleValue: "turn-footer"; FooterRow { objects: root.objects } }
        }
        header: Item {  // bottom-to-top: the header sits below the newest row
            width: list.width
            height: noReply.visible ? noReply.height + 2 * Theme.gap : Theme.pad
            Text {
                textFormat: Text.PlainText
                id: noReply
                objectName: "noReplyNotice"
                visible: notices.noReply
                x: Theme.columnX(list.width); y: Theme.gap
                text: "The agent ended the turn without a reply."
                color: Theme.muted
            }
        }
        // Rows whose content changed are laid out now, inner layouts first (each row's `settle`), then
        // the list: layouts left to the frame would each ask Qt for one more frame showing nothing new.
        Connections {
            target: timeline
            function onRowsUpdated(rows) {
                for (const row of rows) {
                    const shown = list.itemAtIndex(row)
                    if (shown && shown.settle)
                        shown.settle()
                }
                list.forceLayout()
                SpinnerClock.ride()  // a turning spinner's step joins this frame, drawn anyway
            }
            function onFlushed() { SpinnerClock.ride() }
        }
        onMovementStarted: { root.stickToBottom = false; root.pendingRestore = null }
        onMovementEnded: { root.stickToBottom = list.atYEnd; root.noteScroll() }
        // Bottom-to-top layout keeps the newest row anchored while it grows; after inserts we only
        // snap back if the view drifted (coalesced to once per frame).
        onCountChanged: if (root.stickToBottom) Qt.callLater(root.followEnd)

    }

    Welcome {  // an empty chat: whose it is and first steps, resting on the composer below
        id: welcome
        anchors.fill: parent
        visible: list.count === 0 && session.opening === "" && !session.readOnly
        agentLabel: agent.label
        initials: agent.initials
        colourIndex: agent.colourIndex
        agentState: agent.state
        commands: sessionHeader.commands
        onChosen: (text) => root.suggested(text)
    }
    signal suggested(string text)

    Column {  // while the agent is asked to open a chat (each request has a deadline; then a notice)
        objectName: "openingIndicator"
        visible: session.opening !== ""
        anchors.centerIn: parent
        spacing: Theme.gap
        Spinner { anchors.horizontalCenter: parent.horizontalCenter; size: Theme.fontDisplay
                  Accessible.name: "Opening the chat" }
        Label { textFormat: Text.PlainText; objectName: "openingLabel"; text: session.opening; color: Theme.muted
                anchors.horizontalCenter: parent.horizontalCenter }
    }

    // rows that came in at the newest end while the user read further up: the jump button counts them
    property int unseenRows: 0
    Connections {
        target: timeline
        function onRowsInserted(parent, first, last) {
            if (!root.stickToBottom && first === 0 && !list.atYEnd) root.unseenRows += last - first + 1
        }
        function onModelReset() { root.unseenRows = 0 }
    }
    Button {
        id: jump
        objectName: "jumpToLatest"
        visible: !root.stickToBottom && !list.atYEnd && list.count > 0
        anchors.horizontalCenter: parent.horizontalCenter
        anchors.bottom: parent.bottom
        anchors.bottomMargin: Theme.pad
        text: root.unseenRows > 0 ? root.unseenRows + " new" : "Jump to latest"
        contentItem: IconLabel { icon: "arrow-down"; label: jump.text; color: Theme.text }
        onClicked: root.jumpToLatest()
        Accessible.name: "Jump to the latest message (Ctrl+End)"
                         + (root.unseenRows > 0 ? ", " + root.unseenRows + " new since you scrolled up" : "")
    }

    FindBar {
        id: findBar
        anchors.top: parent.top
        anchors.right: parent.right
        anchors.margins: Theme.pad
        onClosed: { search.setOpen(false); root.findClosed() }
    }
    signal findClosed()
    function openFind() { search.setOpen(true); findBar.focusField() }

    QuestionDirectory {
        id: directory
        visible: root.directoryOpen
        anchors.top: findBar.visible ? findBar.bottom : parent.top
        anchors.right: parent.right
        anchors.margins: Theme.pad
        onChosen: (number) => { conversation.goToQuestion(number); conversation.setDirectoryOpen(false) }
        onClosed: conversation.setDirectoryOpen(false)
    }

    NumberAnimation { id: smooth; target: list; property: "contentY"; duration: app.reducedMotion ? 0 : 250
                      easing.type: Easing.OutCubic; onFinished: root.noteScroll() }

    Connections {
        target: conversation
        function onScrollToRow(row) {
            root.stickToBottom = false
            var from = list.contentY
            list.positionViewAtIndex(row, ListView.End)  // bottom-to-top: End is the row's top
            var to = list.contentY
            if (app.reducedMotion) { root.noteScroll(); return }
            list.contentY = from
            smooth.from = from; smooth.to = to
            smooth.restart()
        }
    }
    // Find: the row with the current match is brought in at once; the match itself is marked and
    // scrolled to after the next frame, when the row's own layout has settled.
    property var pendingHit: null
    Connections {
        target: search
        function onGoTo(row, scope, index) {
            root.stickToBottom = false
            list.positionViewAtIndex(row, ListView.Contain)
            root.pendingHit = { row: row, scope: scope, index: index }
            Qt.callLater(root.noteScroll)
            const shown = list.itemAtIndex(row)
            if (shown) search.markIn(shown, scope, index)  // marked in this frame already
        }
        function onIsActiveChanged() { if (search.isActive) search.watchAll(list.contentItem) }
    }
    Connections {
        target: root.pendingHit ? root.Window.window : null
        function onFrameSwapped() {
            const hit = root.pendingHit
            root.pendingHit = null
            const shown = list.itemAtIndex(hit.row)
            if (!shown) return
            const rect = search.markIn(shown, hit.scope, hit.index)
            const height = rect.height > 0 ? rect.height : Math.min(shown.height, list.height)
            const at = shown.mapToItem(list, rect.height > 0 ? rect.x : 0, rect.height > 0 ? rect.y : 0)
            if (at.y < list.height * 0.15 || at.y + height > list.height * 0.85) {
                list.contentY += at.y - (list.height - height) / 2
                list.returnToBounds()
            }
            flashComponent.createObject(shown)
        }
    }
    Component {  // a brief outline around the row of the match the find bar went to
        id: flashComponent
        Rectangle {  // with reduced motion it stands still a moment, then goes
            id: flash
            objectName: "findFlash"
            anchors.fill: parent
            color: "transparent"
            border.color: Theme.searchCurrent
            border.width: 2
            radius: Theme.radius
            SequentialAnimation on opacity {
                PauseAnimation { duration: app.reducedMotion ? 1500 : 300 }
                NumberAnimation { from: 1; to: 0; duration: app.reducedMotion ? 0 : 900; easing.type: Easing.InQuad }
                ScriptAction { script: flash.destroy() }
            }
        }
    }

    // Each chat opens where the user left it (view_memory.py): the row that was at the top of the view,
    // as far past its top as it was; a chat never seen, or left at its end, opens at its newest message.
    Connections {
        target: viewState
        function onChatShown() {  // after the shown chat changed and its remembered view was read
            const view = viewState.scrollOfShown()
            root.stickToBottom = view.atEnd
            root.unseenRows = 0  // another chat: nothing in it is new to the user yet
            Qt.callLater(view.atEnd ? list.positionViewAtBeginning : () => root.restoreScroll(view))
        }
    }
    // Rows made for the restored place settle their heights over the next frames: it is set again
    // after each of a few frames (unless the user moves first), so the remembered row ends on top.
    property var pendingRestore: null
    property int restoreFrames: 0
    function restoreScroll(view) {
        if (view.row >= list.count) { root.jumpToLatest(); return }
        root.pendingRestore = view
        root.restoreFrames = 3
        root.placeRestored()
    }
    function placeRestored() {
        const view = root.pendingRestore
        list.positionViewAtIndex(view.row, ListView.End)  // bottom-to-top: End is the row's top
        list.contentY += view.offset
        list.returnToBounds()
        root.stickToBottom = list.atYEnd
    }
    Connections {
        target: root.pendingRestore ? root.Window.window : null
        function onFrameSwapped() {
            if (list.moving || --root.restoreFrames < 0) { root.pendingRestore = null; return }
            root.placeRestored()
        }
    }
    function noteScroll() {  // where the view is now, for the next visit
        if (root.stickToBottom || list.atYEnd || list.count === 0) {
            viewState.scrolled(-1, 0, true)
            return
        }
        const row = list.indexAt(list.width / 2, list.contentY + 1)
        const shown = row >= 0 ? list.itemAtIndex(row) : null
        if (shown) viewState.scrolled(row, list.contentY - shown.y, false)
    }
    onStickToBottomChanged: if (stickToBottom) { viewState.scrolled(-1, 0, true); root.unseenRows = 0 }

    function jumpToLatest() {  // a glide down (at once with reduced motion), then it follows the end
        const from = list.contentY
        root.stickToBottom = true
        list.positionViewAtBeginning()
        if (app.reducedMotion || from === list.contentY) return
        const to = list.contentY
        list.contentY = from
        smooth.from = from; smooth.to = to
        smooth.restart()
    }
    function followEnd() {
        if (root.stickToBottom && !list.moving && !list.atYEnd) list.positionViewAtBeginning()
    }
}
