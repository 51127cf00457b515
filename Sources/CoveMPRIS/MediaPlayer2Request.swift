import CCoveMPRIS

/// What an MPRIS client asked for, as a value: the C side's request decoded once, so the decisions
/// about it (`MediaPlayer2Model.plan`) are a pure function that tests call without a bus.
enum MediaPlayer2Request: Sendable, Hashable {
    case playPause, play, pause, stop, next, previous
    /// `Seek(offset)`, with the Position a client would have read at that moment.
    case seek(offset: Duration, from: Duration)
    /// `SetPosition(trackID, position)`: honoured only for the current track.
    case setPosition(trackID: String, position: Duration)
    case openURI(String)
    /// A client set `Volume` (already clamped to 0…1).
    case setVolume(Double)
    /// A client set `Rate` (already within MinimumRate…MaximumRate; 0 arrives as `pause`).
    case setRate(Double)
    case raise, quit

    init?(_ request: CoveMprisRequest) {
        let offset = Duration.microseconds(request.offset_us)
        switch request.kind {
        case COVE_MPRIS_REQUEST_PLAY_PAUSE: self = .playPause
        case COVE_MPRIS_REQUEST_PLAY: self = .play
        case COVE_MPRIS_REQUEST_PAUSE: self = .pause
        case COVE_MPRIS_REQUEST_STOP: self = .stop
        case COVE_MPRIS_REQUEST_NEXT: self = .next
        case COVE_MPRIS_REQUEST_PREVIOUS: self = .previous
        case COVE_MPRIS_REQUEST_SEEK: self = .seek(offset: offset, from: .microseconds(request.position_us))
        case COVE_MPRIS_REQUEST_SET_POSITION:
            guard let text = request.text else { return nil }
            self = .setPosition(trackID: String(cString: text), position: offset)
        case COVE_MPRIS_REQUEST_OPEN_URI:
            guard let text = request.text else { return nil }
            self = .openURI(String(cString: text))
        case COVE_MPRIS_REQUEST_SET_VOLUME: self = .setVolume(request.value)
        case COVE_MPRIS_REQUEST_SET_RATE: self = .setRate(request.value)
        case COVE_MPRIS_REQUEST_RAISE: self = .raise
        case COVE_MPRIS_REQUEST_QUIT: self = .quit
        default: return nil
        }
    }
}
