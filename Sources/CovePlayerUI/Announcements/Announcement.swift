/// Something worth telling a screen-reader user, as a value (the sentence comes from `ScreenReaderAnnouncer`).
public enum Announcement: Sendable, Hashable {
    case loading
    case playing
    /// Playing at the live edge.
    case playingLive
    case paused(at: Duration)
    case buffering
    case ended
    case failed
    /// A seek landed (posted by the UI: a position change alone is not a seek).
    case position(Duration)
    /// An ad started.
    case ad(AdPosition)
    /// The ads are over and the content resumes.
    case returnedToVideo
    /// Captions changed; nil is off.
    case captions(String?)
    case audio(String)
    case bitrate(String)

    /// What changed between two states, in the order it is best heard: the phase (an ad starting or
    /// ending), then playback, then captions, audio and bitrate. Position changes alone say nothing — a
    /// screen reader must not tick every second — and neither does the first state's track choice.
    public static func changes(from old: PlayerUIState?, to new: PlayerUIState) -> [Announcement] {
        var result: [Announcement] = []
        switch (old?.phase, new.phase) {
        case (.ad(let before)?, .ad(let now)) where before.index == now.index && before.count == now.count:
            break
        case (_, .ad(let now)):
            result.append(.ad(now))
        case (.ad?, .content):
            result.append(.returnedToVideo)
        default:
            break
        }

        let live = new.isAtLiveEdge == true
        let becameLive = old?.isAtLiveEdge != true && live
        if old?.status != new.status {
            switch new.status {
            case .loading: result.append(.loading)
            case .playing: result.append(live ? .playingLive : .playing)
            case .paused: result.append(.paused(at: new.position))
            case .buffering: result.append(.buffering)
            case .ended: result.append(.ended)
            case .failed: result.append(.failed)
            }
        } else if becameLive, new.status == .playing {
            result.append(.playingLive)
        }

        guard let old else { return result }
        if old.captions != new.captions { result.append(.captions(new.captions)) }
        if old.audio != new.audio, let audio = new.audio { result.append(.audio(audio)) }
        if old.bitrate != new.bitrate, let bitrate = new.bitrate { result.append(.bitrate(bitrate)) }
        return result
    }
}
