/// Turns state changes into plain sentences for the screen-reader mode (`cove play --accessible`), which
/// prints them one per line instead of redrawing a bar: "Playing", "Paused at 0:12",
/// "Ad 1 of 2, 0:12 left", "Captions: English".
public struct ScreenReaderAnnouncer: Sendable, Hashable {
    public let localizer: Localizer

    public init(localizer: Localizer = Localizer()) {
        self.localizer = localizer
    }

    /// The sentence for one announcement, in the localizer's language.
    public func sentence(for announcement: Announcement) -> String {
        switch announcement {
        case .loading: return localizer.string(.loading)
        case .playing: return localizer.string(.playing)
        case .playingLive: return localizer.string(.playingLive)
        case .paused(let position): return localizer.string(.pausedAt, [.time: TimeText.clock(position)])
        case .buffering: return localizer.string(.buffering)
        case .ended: return localizer.string(.playbackEnded)
        case .failed: return localizer.string(.playbackFailed)
        case .position(let position): return localizer.string(.position, [.time: TimeText.clock(position)])
        case .ad(let ad): return localizer.adCountdown(ad)
        case .returnedToVideo: return localizer.string(.returningToVideo)
        case .captions(let title): return localizer.string(.captionsSelection, [.name: title ?? localizer.string(.off)])
        case .audio(let title): return localizer.string(.audioSelection, [.name: title])
        case .bitrate(let title): return localizer.string(.bitrateSelection, [.name: title])
        }
    }

    /// The sentences for the change from `old` to `new` (see `Announcement.changes`).
    public func sentences(from old: PlayerUIState?, to new: PlayerUIState) -> [String] {
        Announcement.changes(from: old, to: new).map(sentence(for:))
    }
}
