/// Every MPRIS property the service publishes but Position, as one value: the router hands it to the
/// C side whenever it differs from the last one, and the C side signals exactly the fields that changed.
struct MediaPlayer2Snapshot: Sendable, Hashable {
    var status: MediaPlayer2PlaybackStatus
    var rate: Double
    var volume: Double
    var canGoNext: Bool
    var canGoPrevious: Bool
    var canPlay: Bool
    var canPause: Bool
    var canSeek: Bool
    var canQuit: Bool
    var canRaise: Bool
    /// Nil publishes the spec's `NoTrack`.
    var metadata: MediaPlayer2Metadata?
}
