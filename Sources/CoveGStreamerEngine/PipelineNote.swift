import CCoveGst
import Foundation
import Synchronization

/// What the pipeline tells its own bus thread: work that happens on a streaming or caller thread but must
/// be reported in order with GStreamer's own bus messages (a seek's ASYNC_DONE, EOS, errors).
///
/// A note is a typed value. It travels in a ``PipelineNotes`` mailbox; the bus carries only a numbered
/// application message that says "note N is waiting", so no name or positional integer has to be parsed
/// back on the other side.
enum PipelineNote: Sendable, Equatable {
    /// Close: the bus thread stops after this.
    case stop
    /// The volume or mute was applied; report what playbin now holds.
    case volumeApplied
    /// Cove's feed delivered the last segment and the sinks drained it.
    case mediaEnded
    /// The URL that was opened as a media file turned out to be a playlist.
    case disguisedManifest
    /// Subtitle cues are waiting in the pipeline's state.
    case textCuesPending
    /// A video buffer reached a sink, stamped on the streaming thread when it happened.
    case firstBuffer(FrameSighting, wallTime: Double)
    /// The video caps named a new size.
    case videoSize(width: Int, height: Int)
    /// The seek to the start position was refused: start where the stream is instead.
    case startSeekFailed
    /// The engine refused the app's seek `id`.
    case seekFailed(id: Int)
    /// A state change failed synchronously (its ERROR, if any, is already on the bus ahead of this).
    case stateChangeFailed
}

/// How a video buffer was seen, which decides when its first-frame time is reported.
enum FrameSighting: Sendable, Equatable {
    /// A buffer reached a sink that does not say when it renders (a display sink shows it at preroll).
    case arrived
    /// A headless sink rendered it on the clock.
    case rendered
    /// The first frame at the start position, shown at preroll while playing was asked for.
    case shownAtPreroll
}

/// Notes posted and not yet handled, by number. A dictionary rather than a queue: a bus flushed at close
/// drops its messages, and numbered notes can never be handed to the wrong message.
final class PipelineNotes: Sendable {
    /// The application message's structure name: the one string on the bus, checked in one place.
    static let messageName = "cove-note"

    private let waiting = Mutex<(next: gint64, notes: [gint64: PipelineNote])>((0, [:]))

    /// Posts `note` on `element`'s bus, behind every message already there.
    func post(_ note: PipelineNote, on element: UnsafeMutablePointer<GstElement>) {
        let number = waiting.withLock { box -> gint64 in
            box.next += 1
            box.notes[box.next] = note
            return box.next
        }
        cove_post_application_values(element, Self.messageName, number, 0)
    }

    /// The note an application message announces, taken out of the mailbox; nil for any other message.
    func take(_ message: UnsafeMutablePointer<GstMessage>) -> PipelineNote? {
        guard String(cString: cove_message_structure_name(message)) == Self.messageName else { return nil }
        var number: gint64 = 0
        var unused: gint64 = 0
        guard cove_message_application_values(message, &number, &unused) != 0 else { return nil }
        return waiting.withLock { $0.notes.removeValue(forKey: number) }
    }

    /// Notes posted but not yet handled (a test's and a leak check's view).
    var pendingCount: Int { waiting.withLock { $0.notes.count } }
}
