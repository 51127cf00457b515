/// The app's single receiver of controller callbacks (the seed's `BCOVPlaybackControllerDelegate`).
///
/// Every method has an empty default, so implement only what you need. Callbacks arrive in event
/// order on the controller's delivery task — never concurrently — and the controller never waits for
/// them; hop to your own actor (e.g. `MainActor`) for UI work.
public protocol PlaybackControllerDelegate: AnyObject, Sendable {
    func playbackController(_ controller: PlaybackController, didAdvanceTo session: PlaybackSession)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didProgressTo progress: MediaTime)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeDuration duration: Duration?)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didPassCuePoints passage: CuePointPassage)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeSeekableRanges ranges: [TimeRange])
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, determinedMediaType mediaType: MediaType)
    func playbackController(_ controller: PlaybackController, determinedVideoType videoType: VideoType, for video: Video)
    func playbackController(_ controller: PlaybackController, determinedCodecs codecs: [String], for video: Video)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeSelectedAudioTrack track: MediaTrack?)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeSelectedTextTrack track: MediaTrack?)
    func playbackController(_ controller: PlaybackController, didCompletePlaylist videos: [Video])
    func playbackController(_ controller: PlaybackController, noPlayableVideosFound videos: [Video])
    func playbackController(_ controller: PlaybackController, didInsert video: Video, at index: Int)
    func playbackController(_ controller: PlaybackController, failedToInsert video: Video, error: PlaybackError)
    // Bumper callbacks (the seed's BumperDelegate).
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterBumper bumper: Video)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitBumper bumper: Video)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, bumper: Video, didProgressTo progress: MediaTime)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didPauseBumper bumper: Video)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didResumeBumper bumper: Video)
    /// The stream-concurrency service refused the session: the viewer's active sessions as it listed them.
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReachMaxConcurrency sessions: [JSONValue])
    /// The commands the controller can carry out now changed (`PlaybackController.availableCommands`).
    func playbackController(_ controller: PlaybackController, didChangeAvailableCommands commands: Set<PlayerCommand>)
    /// Every event, including those without a dedicated callback (variant switches, frame timing).
    func playbackController(_ controller: PlaybackController, didReceive event: PlaybackEvent)
    /// A custom label for a text track in track menus (the seed's `titleForLegibleMediaSelectionOption`);
    /// nil keeps `MediaTrack.displayName`.
    func playbackController(_ controller: PlaybackController, titleForTextTrack track: MediaTrack) -> String?
    /// A custom label for an audio track (the seed's `titleForAudibleMediaSelectionOption`).
    func playbackController(_ controller: PlaybackController, titleForAudioTrack track: MediaTrack) -> String?
}

extension PlaybackControllerDelegate {
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReachMaxConcurrency sessions: [JSONValue]) {}
    public func playbackController(_ controller: PlaybackController, titleForTextTrack track: MediaTrack) -> String? { nil }
    public func playbackController(_ controller: PlaybackController, titleForAudioTrack track: MediaTrack) -> String? { nil }
    public func playbackController(_ controller: PlaybackController, didAdvanceTo session: PlaybackSession) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didProgressTo progress: MediaTime) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeDuration duration: Duration?) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didPassCuePoints passage: CuePointPassage) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeSeekableRanges ranges: [TimeRange]) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, determinedMediaType mediaType: MediaType) {}
    public func playbackController(_ controller: PlaybackController, determinedVideoType videoType: VideoType, for video: Video) {}
    public func playbackController(_ controller: PlaybackController, determinedCodecs codecs: [String], for video: Video) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeSelectedAudioTrack track: MediaTrack?) {
    }
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didChangeSelectedTextTrack track: MediaTrack?) {}
    public func playbackController(_ controller: PlaybackController, didCompletePlaylist videos: [Video]) {}
    public func playbackController(_ controller: PlaybackController, noPlayableVideosFound videos: [Video]) {}
    public func playbackController(_ controller: PlaybackController, didInsert video: Video, at index: Int) {}
    public func playbackController(_ controller: PlaybackController, failedToInsert video: Video, error: PlaybackError) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterBumper bumper: Video) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitBumper bumper: Video) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, bumper: Video, didProgressTo progress: MediaTime)
    {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didPauseBumper bumper: Video) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didResumeBumper bumper: Video) {}
    public func playbackController(_ controller: PlaybackController, didChangeAvailableCommands commands: Set<PlayerCommand>) {}
    public func playbackController(_ controller: PlaybackController, didReceive event: PlaybackEvent) {}
}

/// A receiver added with `addSessionConsumer(_:)`; any number can be attached (the seed's
/// `BCOVPlaybackSessionConsumer`). A consumer added mid-session immediately receives
/// `didAdvance(to:)` for the current session, then every later event; earlier events are not replayed.
public protocol PlaybackSessionConsumer: AnyObject, Sendable {
    func didAdvance(to session: PlaybackSession)
    func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent)
    func playbackSession(_ session: PlaybackSession, didProgressTo progress: MediaTime)
    func playbackSession(_ session: PlaybackSession, didChangeDuration duration: Duration?)
    func playbackSession(_ session: PlaybackSession, didPassCuePoints passage: CuePointPassage)
    func playbackSession(_ session: PlaybackSession, didChangeSeekableRanges ranges: [TimeRange])
    func playbackSession(_ session: PlaybackSession, determinedMediaType mediaType: MediaType)
    /// The selected sidecar text track's active cues changed (the seed's sidecar subtitles drawing).
    func playbackSession(_ session: PlaybackSession, didChangeTextCues change: TextCueChange)
    func didCompletePlaylist(_ videos: [Video])
    // Ad callbacks (the seed's ads consumer methods).
    func playbackSession(_ session: PlaybackSession, didEnterAdSequence adSequence: AdSequence)
    func playbackSession(_ session: PlaybackSession, didExitAdSequence adSequence: AdSequence)
    func playbackSession(_ session: PlaybackSession, didEnterAd ad: Ad)
    func playbackSession(_ session: PlaybackSession, didExitAd ad: Ad)
    func playbackSession(_ session: PlaybackSession, ad: Ad, didProgressTo progress: MediaTime)
    func playbackSession(_ session: PlaybackSession, didPauseAd ad: Ad)
    func playbackSession(_ session: PlaybackSession, didResumeAd ad: Ad)
    // Bumper callbacks (the seed's BumperConsumer).
    func playbackSession(_ session: PlaybackSession, didEnterBumper bumper: Video)
    func playbackSession(_ session: PlaybackSession, didExitBumper bumper: Video)
    func playbackSession(_ session: PlaybackSession, bumper: Video, didProgressTo progress: MediaTime)
    func playbackSession(_ session: PlaybackSession, didPauseBumper bumper: Video)
    func playbackSession(_ session: PlaybackSession, didResumeBumper bumper: Video)
    /// Every event, including those without a dedicated callback.
    func didReceive(_ event: PlaybackEvent)
}

extension PlaybackSessionConsumer {
    public func didAdvance(to session: PlaybackSession) {}
    public func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {}
    public func playbackSession(_ session: PlaybackSession, didProgressTo progress: MediaTime) {}
    public func playbackSession(_ session: PlaybackSession, didChangeDuration duration: Duration?) {}
    public func playbackSession(_ session: PlaybackSession, didPassCuePoints passage: CuePointPassage) {}
    public func playbackSession(_ session: PlaybackSession, didChangeSeekableRanges ranges: [TimeRange]) {}
    public func playbackSession(_ session: PlaybackSession, determinedMediaType mediaType: MediaType) {}
    public func playbackSession(_ session: PlaybackSession, didChangeTextCues change: TextCueChange) {}
    public func didCompletePlaylist(_ videos: [Video]) {}
    public func playbackSession(_ session: PlaybackSession, didEnterAdSequence adSequence: AdSequence) {}
    public func playbackSession(_ session: PlaybackSession, didExitAdSequence adSequence: AdSequence) {}
    public func playbackSession(_ session: PlaybackSession, didEnterAd ad: Ad) {}
    public func playbackSession(_ session: PlaybackSession, didExitAd ad: Ad) {}
    public func playbackSession(_ session: PlaybackSession, ad: Ad, didProgressTo progress: MediaTime) {}
    public func playbackSession(_ session: PlaybackSession, didPauseAd ad: Ad) {}
    public func playbackSession(_ session: PlaybackSession, didResumeAd ad: Ad) {}
    public func playbackSession(_ session: PlaybackSession, didEnterBumper bumper: Video) {}
    public func playbackSession(_ session: PlaybackSession, didExitBumper bumper: Video) {}
    public func playbackSession(_ session: PlaybackSession, bumper: Video, didProgressTo progress: MediaTime) {}
    public func playbackSession(_ session: PlaybackSession, didPauseBumper bumper: Video) {}
    public func playbackSession(_ session: PlaybackSession, didResumeBumper bumper: Video) {}
    public func didReceive(_ event: PlaybackEvent) {}
}

/// Ad callbacks for the delegate (the seed's `BCOVPlaybackControllerAdsDelegate`): adopt it beside
/// `PlaybackControllerDelegate` to hear about ad breaks and ads. Every method has an empty default.
public protocol PlaybackControllerAdsDelegate: PlaybackControllerDelegate {
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterAdSequence adSequence: AdSequence)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitAdSequence adSequence: AdSequence)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterAd ad: Ad)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitAd ad: Ad)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, ad: Ad, didProgressTo progress: MediaTime)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didPauseAd ad: Ad)
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didResumeAd ad: Ad)
}

extension PlaybackControllerAdsDelegate {
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterAdSequence adSequence: AdSequence) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitAdSequence adSequence: AdSequence) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterAd ad: Ad) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitAd ad: Ad) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, ad: Ad, didProgressTo progress: MediaTime) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didPauseAd ad: Ad) {}
    public func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didResumeAd ad: Ad) {}
}
