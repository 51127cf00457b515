/// A session's seeks: asked before the media was ready, given to the engine as its start position, or
/// in flight — and an end of stream that has to wait for the seek that reached it.
///
/// Every request is answered exactly once: the newest request wins and the ones it replaces answer
/// `false`; a session that fails, ends or is resumed answers all it holds. The tracker returns the answers
/// and the loop delivers them, in its own order with the events.
struct SeekTracker {
    typealias PendingSeek = SessionRuntime.PendingSeek

    /// Asked while loading: performed once the media is ready.
    private(set) var queued: PendingSeek?
    /// Being executed by the engine (in place, or by rebuilding the pipeline).
    private(set) var inFlight: PendingSeek?
    /// The engine was asked to open at its target (a seek asked while the session was prepared).
    private(set) var opening: PendingSeek?
    /// The stream ended while a seek was in flight: the end follows the seek.
    private(set) var endedDuringSeek = false

    var isSeeking: Bool { inFlight != nil }

    enum Event {
        /// The app asked for a seek while the media loads: it replaces any queued or opening one.
        case requestedWhileLoading(PendingSeek)
        /// The session opened, starting at `opening`'s target if there is one.
        case opened(at: PendingSeek?)
        /// A seek was sent to the engine (or a rebuild started for it): it interrupts the one in flight.
        case sent(PendingSeek)
        /// The engine finished seek `id`.
        case engineCompleted(id: Int, succeeded: Bool)
        /// The in-flight seek ended another way: its rebuilt pipeline loaded (or failed), or playback stopped.
        case inFlightEnded(succeeded: Bool)
        /// The media is ready: the opening seek is done and a queued one can go.
        case ready
        /// The engine reached the end of the stream.
        case endOfStream
        /// The loop finished handling a completed seek: an end it deferred can come now.
        case seekHandled
        /// The media failed to load: nothing asked before it will happen.
        case loadFailed
        /// Everything pending is over (the session ends, is refused, or is resumed elsewhere).
        case abandoned
    }

    struct Effects {
        /// Answers to deliver, in order.
        var answers: [(seek: PendingSeek, succeeded: Bool)] = []
        /// A queued seek to perform now.
        var perform: PendingSeek?
        /// The end of the stream is reached now (not deferred, or its seek is over).
        var endReached = false
    }

    /// Takes an event; returns the answers to deliver and what to do next.
    mutating func handle(_ event: Event) -> Effects {
        var effects = Effects()
        func answer(_ seek: PendingSeek?, _ succeeded: Bool) {
            if let seek { effects.answers.append((seek, succeeded)) }
        }
        switch event {
        case .requestedWhileLoading(let request):
            answer(queued, false)
            answer(opening, false)
            opening = nil
            queued = request
        case .opened(let start):
            opening = start
        case .sent(let request):
            answer(inFlight, false)
            inFlight = request
        case .engineCompleted(let id, let succeeded):
            guard let request = inFlight, request.id == id else { break }
            inFlight = nil
            answer(request, succeeded)
        case .inFlightEnded(let succeeded):
            answer(inFlight, succeeded)
            inFlight = nil
        case .ready:
            answer(opening, true)
            opening = nil
            effects.perform = queued
            queued = nil
        case .endOfStream:
            if inFlight != nil {
                endedDuringSeek = true
            } else {
                effects.endReached = true
            }
        case .seekHandled:
            effects.endReached = endedDuringSeek
            endedDuringSeek = false
        case .loadFailed:
            answer(queued, false)
            answer(opening, false)
            queued = nil
            opening = nil
        case .abandoned:
            answer(queued, false)
            answer(inFlight, false)
            answer(opening, false)
            queued = nil
            inFlight = nil
            opening = nil
            endedDuringSeek = false
        }
        return effects
    }
}
