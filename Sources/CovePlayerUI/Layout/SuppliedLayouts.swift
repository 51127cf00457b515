import CoveCore

/// The layouts the SDK supplies, one per kind of stream (the seed's `basicControlViewWith…Layout`).
public enum SuppliedLayout: String, Sendable, Hashable, CaseIterable {
    case vod
    case live
    case liveDVR
    /// Audio on demand (the seed's AOD layout).
    case audioOnly
    case liveAudio
    case liveDVRAudio

    /// The seed's `automaticControlTypeSelection`: video+audio VOD/live/live DVR get the VOD, live and
    /// live-DVR layouts; audio-only streams their audio counterparts.
    public init(mediaType: MediaType, videoType: VideoType) {
        switch (mediaType, videoType) {
        case (.audioVideo, .vod): self = .vod
        case (.audioVideo, .live): self = .live
        case (.audioVideo, .liveDVR): self = .liveDVR
        case (.audio, .vod): self = .audioOnly
        case (.audio, .live): self = .liveAudio
        case (.audio, .liveDVR): self = .liveDVRAudio
        }
    }

    public var layout: ControlLayout {
        switch self {
        case .vod: return .vod
        case .live: return .live
        case .liveDVR: return .liveDVR
        case .audioOnly: return .audioOnly
        case .liveAudio: return .liveAudio
        case .liveDVRAudio: return .liveDVRAudio
        }
    }

    public var isAudioOnly: Bool { self == .audioOnly || self == .liveAudio || self == .liveDVRAudio }
}

/// The supplied layouts, modelled on the seed's basic layouts: the captions button and the bitrate
/// button start removed (shown once tracks or bitrate options exist, as in the seed); AirPlay,
/// picture in picture and Video 360 are left out (Linux has none of them). Audio layouts have no screen
/// mode button: there is no picture to enlarge. Live layouts have no slider or jump back: a live stream
/// without DVR has nowhere to seek to.
extension ControlLayout {
    /// Elastic spacer.
    private static var spacer: LayoutView { LayoutView(.empty, width: 1, elasticity: 1) }
    private static var slider: LayoutView { LayoutView(.progress, elasticity: 1) }
    private static var captions: LayoutView { LayoutView(.closedCaption, isRemoved: true) }
    private static var bitrate: LayoutView { LayoutView(.preferredBitrate, isRemoved: true) }

    /// On-demand video: one row standard; time and slider above the buttons compact.
    public static let vod = ControlLayout(
        standard: [
            [
                LayoutView(.playback), LayoutView(.jumpBack), LayoutView(.currentTime), LayoutView(.timeSeparator),
                LayoutView(.duration), slider, captions, bitrate, LayoutView(.screenMode),
            ]
        ],
        compact: [
            [LayoutView(.currentTime), slider, LayoutView(.duration)],
            [LayoutView(.playback), LayoutView(.jumpBack), spacer, captions, bitrate, LayoutView(.screenMode)],
        ])

    /// Live video without DVR: play/pause and the live indicator.
    public static let live = ControlLayout(
        standard: [[LayoutView(.playback), LayoutView(.live), spacer, captions, bitrate, LayoutView(.screenMode)]],
        compact: [[LayoutView(.playback), LayoutView(.live), spacer, captions, bitrate, LayoutView(.screenMode)]])

    /// Live video with a DVR window: the slider covers the window and the live button returns to the edge.
    public static let liveDVR = ControlLayout(
        standard: [
            [
                LayoutView(.playback), LayoutView(.jumpBack), LayoutView(.currentTime), slider, LayoutView(.live),
                captions, bitrate, LayoutView(.screenMode),
            ]
        ],
        compact: [
            [LayoutView(.currentTime), slider, LayoutView(.live)],
            [LayoutView(.playback), LayoutView(.jumpBack), spacer, captions, bitrate, LayoutView(.screenMode)],
        ])

    /// Audio on demand (AOD).
    public static let audioOnly = ControlLayout(
        standard: [
            [
                LayoutView(.playback), LayoutView(.jumpBack), LayoutView(.currentTime), LayoutView(.timeSeparator),
                LayoutView(.duration), slider, captions,
            ]
        ],
        compact: [
            [LayoutView(.currentTime), slider, LayoutView(.duration)],
            [LayoutView(.playback), LayoutView(.jumpBack), spacer, captions],
        ])

    /// Live audio without DVR.
    public static let liveAudio = ControlLayout(
        standard: [[LayoutView(.playback), LayoutView(.live), spacer, captions]],
        compact: [[LayoutView(.playback), LayoutView(.live), spacer, captions]])

    /// Live audio with a DVR window.
    public static let liveDVRAudio = ControlLayout(
        standard: [[LayoutView(.playback), LayoutView(.jumpBack), LayoutView(.currentTime), slider, LayoutView(.live), captions]],
        compact: [
            [LayoutView(.currentTime), slider, LayoutView(.live)],
            [LayoutView(.playback), LayoutView(.jumpBack), spacer, captions],
        ])

    /// Shown while an SSAI ad plays (the seed's ad control view): the "Ad n of m" countdown, the ad's
    /// progress (not seekable), "Learn more", removed until the ad has a click-through, and the skip
    /// control, removed until the ad is skippable.
    public static func advertising(mediaType: MediaType) -> ControlLayout {
        let learnMore = LayoutView(.learnMore, isRemoved: true)
        let skip = LayoutView(.skip, width: ControlTag.skipAdCountdown.defaultWidth, isRemoved: true)
        let trailing: [LayoutView] = mediaType == .audio ? [] : [LayoutView(.screenMode)]
        return ControlLayout(
            standard: [ControlBar([LayoutView(.playback), LayoutView(.adPodCountdown), slider, learnMore, skip] + trailing)],
            compact: [
                [LayoutView(.adPodCountdown), slider],
                ControlBar([LayoutView(.playback), spacer, learnMore, skip] + trailing),
            ])
    }

    /// The seed's `automaticControlTypeSelection` for a stream (see `SuppliedLayout.init(mediaType:videoType:)`).
    public static func automatic(mediaType: MediaType, videoType: VideoType) -> ControlLayout {
        SuppliedLayout(mediaType: mediaType, videoType: videoType).layout
    }
}
