/// Every string the player UI shows or speaks. The raw value is the key an app overrides
/// (`LocalizationOverrides`), like a key in the seed's `BrightcoveSDK.strings`.
///
/// Templates hold `{placeholder}`s (`UIStringKey.placeholders`); every translation of a key has the same ones.
public enum UIStringKey: String, Sendable, Hashable, CaseIterable {
    // Buttons and their two states.
    case play
    case pause
    case jumpBack
    case captions
    case closeCaptionsMenu
    case audio
    case off
    case auto
    case bitrate
    case closeBitrateMenu
    case enterFullScreen
    case exitFullScreen
    case mute
    case unmute
    case live
    case goToLive
    case enterVRGogglesMode
    case exitVRGogglesMode
    case startPictureInPicture
    case stopPictureInPicture
    case playOnAnotherDevice

    // Labels and the slider (the seed's accessibility prefixes).
    case currentTime
    case totalTime
    case timeline

    // Ads.
    case advertisement
    case adCountdown
    case adCountdownWithTimeLeft
    case timeLeft
    case videoWillResumeIn
    case learnMore
    case skipAd
    case skipAdIn

    // Screen-reader sentences.
    case loading
    case playing
    case playingLive
    case paused
    case pausedAt
    case buffering
    case playbackEnded
    case playbackFailed
    case position
    case captionsSelection
    case audioSelection
    case bitrateSelection
    case returningToVideo

    /// The placeholders the key's template holds, in English order.
    public var placeholders: [UIStringPlaceholder] {
        switch self {
        case .jumpBack: return [.seconds]
        case .adCountdown: return [.index, .count]
        case .adCountdownWithTimeLeft: return [.index, .count, .time]
        case .timeLeft, .videoWillResumeIn, .skipAdIn, .pausedAt, .position: return [.time]
        case .captionsSelection, .audioSelection, .bitrateSelection: return [.name]
        default: return []
        }
    }
}

/// A `{name}` slot in a template.
public enum UIStringPlaceholder: String, Sendable, Hashable, CaseIterable {
    /// 1-based position of an ad in its pod.
    case index
    /// Number of ads in the pod.
    case count
    /// A clock time ("0:12").
    case time
    /// A whole number of seconds.
    case seconds
    /// A track, language or option title.
    case name

    /// The slot as written in templates.
    public var token: String { "{\(rawValue)}" }
}
