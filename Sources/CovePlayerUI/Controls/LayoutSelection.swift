import CoveCore

extension ControlLayout {
    /// The layout to draw right now, from the app's layout, the options and what is playing:
    ///
    /// 1. During an SSAI ad, `advertising(mediaType:)`.
    /// 2. Otherwise the automatic layout (`automatic(mediaType:videoType:)`) when
    ///    `automaticControlTypeSelection` is on or the app gave none, else the app's layout. During a
    ///    bumper with automatic selection, the VOD or AOD layout whatever the content is: the seed designs
    ///    only those for bumpers.
    /// 3. The bitrate button is restored when the options carry a bitrate menu, the captions button when
    ///    the stream has caption or audio choices (the seed shows them only then).
    /// 4. `ControlAvailability(phase:options:)` is applied last, so a phase's rules win.
    public static func resolved(
        appLayout: ControlLayout?, options: PlayerUIOptions, mediaType: MediaType, videoType: VideoType,
        phase: PlaybackPhase, hasTrackChoices: Bool
    ) -> ControlLayout {
        var layout: ControlLayout
        switch phase {
        case .ad:
            layout = .advertising(mediaType: mediaType)
        case .bumper where options.automaticControlTypeSelection || appLayout == nil:
            layout = .automatic(mediaType: mediaType, videoType: .vod)
        case .bumper, .content:
            layout =
                options.automaticControlTypeSelection
                ? .automatic(mediaType: mediaType, videoType: videoType)
                : appLayout ?? .automatic(mediaType: mediaType, videoType: videoType)
        }
        if options.bitrateMenu != nil { layout = layout.settingRemoved(false, for: .preferredBitrate) }
        if hasTrackChoices { layout = layout.settingRemoved(false, for: .closedCaption) }
        return ControlAvailability(phase: phase, options: options).applied(to: layout)
    }
}
