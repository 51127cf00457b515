/// The app's own accessibility label for a control, or nil to keep the default (the seed's
/// `BCOVPUIButtonAccessibilityDelegate.accessibilityLabelForButton:isPrimaryState:`).
public typealias AccessibilityLabelOverride = @Sendable (_ tag: ControlTag, _ isPrimaryState: Bool) -> String?

/// Spoken names for controls, localized, with the app's overrides.
///
/// A button's primary state is the one it starts in: play/pause paused (label "Play"), screen mode
/// normal ("Enter full screen"), a menu button with its menu closed, picture in picture and Video 360
/// off, and the live button at the live edge ("Live"; behind it, "Go to live"). Controls with a single
/// state give the same label for both. The time labels and the slider get the seed's prefixes
/// ("Current time", "Total time", "Timeline"); the separator and empty boxes have none.
public struct AccessibilityLabels: Sendable {
    public let localizer: Localizer
    /// Seconds said by the jump back label.
    public let jumpBackSeconds: Int
    public let override: AccessibilityLabelOverride?

    public init(localizer: Localizer = Localizer(), jumpBackSeconds: Int = 10, override: AccessibilityLabelOverride? = nil) {
        self.localizer = localizer
        self.jumpBackSeconds = jumpBackSeconds
        self.override = override
    }

    /// Labels in the options' jump back interval.
    public init(localizer: Localizer, options: PlayerUIOptions, override: AccessibilityLabelOverride? = nil) {
        self.init(localizer: localizer, jumpBackSeconds: options.jumpBackSeconds, override: override)
    }

    /// The label for `tag` in the given state: the app's when it gives one, else the built-in one (nil
    /// for the separator, empty boxes and custom controls the app does not name).
    public func label(for tag: ControlTag, isPrimaryState: Bool = true) -> String? {
        if let custom = override?(tag, isPrimaryState) { return custom }
        return defaultLabel(for: tag, isPrimaryState: isPrimaryState)
    }

    /// The built-in label, ignoring the override.
    public func defaultLabel(for tag: ControlTag, isPrimaryState: Bool = true) -> String? {
        let key: UIStringKey
        switch tag {
        case .playback: key = isPrimaryState ? .play : .pause
        case .jumpBack: return localizer.jumpBack(seconds: jumpBackSeconds)
        case .closedCaption: key = isPrimaryState ? .captions : .closeCaptionsMenu
        case .screenMode: key = isPrimaryState ? .enterFullScreen : .exitFullScreen
        case .currentTime: key = .currentTime
        case .duration: key = .totalTime
        case .progress: key = .timeline
        case .externalRoute: key = .playOnAnotherDevice
        case .live: key = isPrimaryState ? .live : .goToLive
        case .adPodCountdown: key = .advertisement
        case .learnMore: key = .learnMore
        case .skipAdCountdown, .skip: key = .skipAd
        case .video360: key = isPrimaryState ? .enterVRGogglesMode : .exitVRGogglesMode
        case .preferredBitrate: key = isPrimaryState ? .bitrate : .closeBitrateMenu
        case .pictureInPicture: key = isPrimaryState ? .startPictureInPicture : .stopPictureInPicture
        case .volume: key = isPrimaryState ? .mute : .unmute
        case .timeSeparator, .empty, .custom: return nil
        }
        return localizer.string(key)
    }
}
