import CoveCore
import CovePlayerUI

/// One of the two menus the controls open: captions and audio (the seed's closed-captions menu lists
/// both), and the preferred bitrate. Items with the action each one performs, and where the cursor is.
public struct ControlMenu: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case captions
        case bitrate
    }

    public struct Item: Sendable, Hashable {
        public let title: String
        public let action: ControlAction
        /// What plays now (ticked).
        public let isCurrent: Bool
        /// Starts a section ("Audio", "Subtitles"): front ends that draw headings draw one above it.
        public let section: String?

        public init(title: String, action: ControlAction, isCurrent: Bool, section: String? = nil) {
            self.title = title
            self.action = action
            self.isCurrent = isCurrent
            self.section = section
        }
    }

    public let kind: Kind
    public let title: String
    public let items: [Item]
    /// The item the cursor is on.
    public private(set) var selected: Int

    public init(kind: Kind, title: String, items: [Item], selected: Int) {
        self.kind = kind
        self.title = title
        self.items = items
        self.selected = items.isEmpty ? 0 : min(max(0, selected), items.count - 1)
    }

    /// Moves the cursor by `step` items, kept inside the menu.
    public mutating func move(by step: Int) {
        guard !items.isEmpty else { return }
        selected = min(items.count - 1, max(0, selected + step))
    }

    public mutating func select(_ index: Int) {
        guard items.indices.contains(index) else { return }
        selected = index
    }

    /// The captions-and-audio menu for `session`: each audio track when there is a choice (the one playing
    /// ticked), then Off and each text track. The cursor starts on the captions choice.
    public static func captions(session: PlaybackSession, controller: PlaybackController, localizer: Localizer) -> ControlMenu {
        let tracks = session.textTrackGroup.tracks
        let audio = session.audioTrackGroup.tracks
        let playing = session.selectedAudioTrack
        // One audio track is no choice: the audio section is listed only when there are several.
        let audioItems =
            audio.count > 1
            ? audio.enumerated().map { index, track in
                Item(
                    title: localizer.string(.audio) + ": " + controller.title(for: track), action: .selectAudioTrack(track), isCurrent: track == playing,
                    section: index == 0 ? localizer.string(.audio) : nil)
            } : []
        let chosen = session.selectedTextTrack
        let textItems =
            [Item(title: localizer.string(.off), action: .selectTextTrack(nil), isCurrent: chosen == nil, section: localizer.string(.captions))]
            + tracks.map { Item(title: controller.title(for: $0), action: .selectTextTrack($0), isCurrent: $0 == chosen) }
        let selected = audioItems.count + (chosen.flatMap { chosen in tracks.firstIndex(of: chosen).map { $0 + 1 } } ?? 0)
        return ControlMenu(kind: .captions, title: localizer.string(.captions), items: audioItems + textItems, selected: selected)
    }

    /// The bitrate menu: the app's (`PlayerUIOptions.bitrateMenu`) or, without one, Auto and each variant of
    /// the stream's ladder. The cursor starts on the controller's current cap.
    public static func bitrate(appMenu: BitrateMenu?, session: PlaybackSession, controller: PlaybackController, localizer: Localizer) -> ControlMenu {
        let menu = appMenu ?? BitrateMenu(ladder: session.variants, localizer: localizer)
        let cap = controller.preferredPeakBitRate ?? 0
        let current = menu.index(ofBitrate: cap) ?? (appMenu == nil ? 0 : menu.initialSelection)
        let items = menu.options.enumerated().map { index, option in
            Item(title: option.title, action: .selectBitrate(option), isCurrent: index == current)
        }
        return ControlMenu(kind: .bitrate, title: menu.displayTitle(localizer), items: items, selected: current)
    }
}
