import CoveCore
import CoveMPRIS
import CovePlayerControls
import CovePlayerView
import Synchronization

/// Closing the player's window (or Quit from a media controller over MPRIS) quits the command, as `q`
/// does in the terminal: the controller shuts down and the run ends as quit (exit 0), not as interrupted.
final class WindowClose: Sendable {
    private let closed = ClosedByViewer()
    private let task: Task<Void, Never>?

    init(view: PlayerView?, controller: PlaybackController, mpris: MediaPlayer2Service? = nil) {
        let closed = self.closed
        mpris?.onQuit = {
            closed.set()
            controller.shutdown()
        }
        guard let view else {
            task = nil
            return
        }
        task = Task {
            for await event in view.events {
                switch event {
                case .closeRequested, .windowLost:
                    closed.set()
                    controller.shutdown()
                default:
                    break
                }
            }
        }
    }

    /// The outcome as the viewer meant it: a window closed by the viewer is a quit.
    func outcome(_ outcome: PlaybackOutcome) -> PlaybackOutcome {
        outcome == .interrupted && closed.isSet ? .quit : outcome
    }

    deinit { task?.cancel() }
}

private final class ClosedByViewer: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
