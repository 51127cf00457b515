import CoveCore
import Foundation

/// The part of a `PlaybackEvent` MPRIS publishes, with sessions reduced to their numbers: the model
/// takes these, so its tests build them directly instead of driving a controller.
enum MediaPlayer2Observation: Sendable, Hashable {
    /// The controller moved to a new session (a new track).
    case sessionStarted(id: Int, video: Video, sourceURL: URL?)
    case lifecycle(session: Int, LifecycleEvent.Kind)
    case progress(session: Int, MediaTime)
    case duration(session: Int, Duration?)
    case volume(session: Int, AudioVolume)
    case commands(Set<PlayerCommand>)
    /// The controller shut down: its event stream ended.
    case ended

    /// Nil for the events MPRIS has no property for (transfers, cue points, variants, …).
    init?(_ event: PlaybackEvent) {
        switch event {
        case .sessionAdvanced(let session): self = .sessionStarted(id: session.id, video: session.video, sourceURL: session.source?.url)
        case .lifecycle(let session, let lifecycle): self = .lifecycle(session: session.id, lifecycle.kind)
        case .progress(let session, let time): self = .progress(session: session.id, time)
        case .durationChanged(let session, let duration): self = .duration(session: session.id, duration)
        case .volumeChanged(let session, let volume): self = .volume(session: session.id, volume)
        case .availableCommandsChanged(let commands): self = .commands(commands)
        default: return nil
        }
    }
}
