import CoveCore

/// The SSAI plugin's error namespace: its codes never equal a core code or another plugin's.
public enum SSAIErrorNamespace {
    public static let name = "ssai"
}

extension PlaybackError.Code {
    /// The video has no VMAP to read (no source with a `vmap` URL, no VMAP data, no VMAP URL): the
    /// seed's `kBCOVSSAIErrorCodeVMAPMissingError`. Content without ads plays when a source allows.
    public static let ssaiVMAPMissing = Self(plugin: SSAIErrorNamespace.name, rawValue: 501, name: "ssaiVMAPMissing")
    /// The VMAP could not be downloaded (HTTP error, timeout, unreachable host).
    public static let ssaiVMAPLoadFailed = Self(plugin: SSAIErrorNamespace.name, rawValue: 502, name: "ssaiVMAPLoadFailed")
    /// The VMAP was not a usable document (not XML, not VMAP, unsafe, over a limit, no stream URL).
    public static let ssaiVMAPInvalid = Self(plugin: SSAIErrorNamespace.name, rawValue: 503, name: "ssaiVMAPInvalid")
    /// The ad timeline could not be built from the VMAP (the seed's `kBCOVSSAIErrorCodeTimelineLoadError`);
    /// the stream plays without ad events.
    public static let ssaiTimelineLoadFailed = Self(plugin: SSAIErrorNamespace.name, rawValue: 504, name: "ssaiTimelineLoadFailed")
    /// The VMAP's timeline needed adjusting to be playable (negative, overlapping or out-of-range
    /// offsets, ads without a duration, ads that run past the stream's end); the message says what
    /// was done. Playback goes on with the adjusted timeline.
    public static let ssaiTimelineAdjusted = Self(plugin: SSAIErrorNamespace.name, rawValue: 506, name: "ssaiTimelineAdjusted")
    /// An ad's wrapper chain could not be resolved; that ad is left out.
    public static let ssaiWrapperFailed = Self(plugin: SSAIErrorNamespace.name, rawValue: 505, name: "ssaiWrapperFailed")
    /// An ad's closed-caption file (VAST `ClosedCaptionFile`) could not be downloaded or read (HTTP
    /// error, timeout, not WebVTT or TTML). A warning: the ad plays on without its captions.
    public static let ssaiAdCaptionsFailed = Self(plugin: SSAIErrorNamespace.name, rawValue: 507, name: "ssaiAdCaptionsFailed")
}

/// Names of the SSAI plugin's custom lifecycle events.
public enum SSAIEventName {
    /// The VMAP response as received (the seed's `kBCOVSSAIVMAPResponseReceivedNotification`):
    /// `properties["vmap"]` is the document's text, `properties["url"]` where it came from
    /// (redacted), reported once per session right after `SessionAdvanced`.
    public static let vmapResponseReceived = "SSAIVMAPResponseReceived"
}
