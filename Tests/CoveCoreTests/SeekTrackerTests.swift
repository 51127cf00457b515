import Synchronization
import Testing

@testable import CoveCore

/// Every seek request is answered once: the newest wins, and whatever ends the session answers the rest.
@Suite("Seek tracker")
struct SeekTrackerTests {
    static func seek(_ id: Int, _ seconds: Double = 10) -> SessionRuntime.PendingSeek {
        SessionRuntime.PendingSeek(id: id, target: .seconds(seconds), tolerance: .zero, completion: nil)
    }

    static func answers(_ effects: SeekTracker.Effects) -> [String] {
        effects.answers.map { "\($0.seek.id):\($0.succeeded)" }
    }

    @Test func whileLoadingTheNewestRequestWinsAndReadyOpensAndPerforms() {
        var tracker = SeekTracker()
        _ = tracker.handle(.opened(at: Self.seek(1)))
        #expect(tracker.opening?.id == 1)
        #expect(Self.answers(tracker.handle(.requestedWhileLoading(Self.seek(2)))) == ["1:false"], "the engine's start is replaced too")
        #expect(Self.answers(tracker.handle(.requestedWhileLoading(Self.seek(3)))) == ["2:false"])
        let ready = tracker.handle(.ready)
        #expect(Self.answers(ready).isEmpty && ready.perform?.id == 3)
        #expect(tracker.queued == nil && tracker.opening == nil)

        var started = SeekTracker()
        _ = started.handle(.opened(at: Self.seek(4)))
        #expect(Self.answers(started.handle(.ready)) == ["4:true"], "opening at the target was the seek")
    }

    @Test func aNewSeekInterruptsTheOneInFlightAndOnlyTheCurrentOneCompletes() {
        var tracker = SeekTracker()
        #expect(Self.answers(tracker.handle(.sent(Self.seek(1)))).isEmpty)
        #expect(Self.answers(tracker.handle(.sent(Self.seek(2)))) == ["1:false"])
        #expect(Self.answers(tracker.handle(.engineCompleted(id: 1, succeeded: true))).isEmpty, "already answered")
        #expect(tracker.isSeeking)
        #expect(Self.answers(tracker.handle(.engineCompleted(id: 2, succeeded: true))) == ["2:true"])
        #expect(!tracker.isSeeking)
    }

    @Test func anEndReachedDuringASeekWaitsForIt() {
        var tracker = SeekTracker()
        #expect(tracker.handle(.endOfStream).endReached, "no seek: the end is now")
        _ = tracker.handle(.sent(Self.seek(1, 99)))
        #expect(!tracker.handle(.endOfStream).endReached)
        #expect(tracker.endedDuringSeek)
        _ = tracker.handle(.engineCompleted(id: 1, succeeded: true))
        #expect(tracker.handle(.seekHandled).endReached)
        #expect(!tracker.handle(.seekHandled).endReached, "once")
    }

    @Test func failuresAndTheEndOfTheSessionAnswerEverythingPending() {
        var tracker = SeekTracker()
        _ = tracker.handle(.opened(at: Self.seek(1)))
        _ = tracker.handle(.requestedWhileLoading(Self.seek(2)))
        #expect(Self.answers(tracker.handle(.loadFailed)) == ["2:false"])

        var playing = SeekTracker()
        _ = playing.handle(.sent(Self.seek(3)))
        #expect(Self.answers(playing.handle(.inFlightEnded(succeeded: true))) == ["3:true"], "its rebuilt pipeline loaded")
        _ = playing.handle(.sent(Self.seek(4)))
        _ = playing.handle(.endOfStream)
        #expect(Self.answers(playing.handle(.abandoned)) == ["4:false"])
        #expect(!playing.endedDuringSeek && !playing.isSeeking)
        #expect(Self.answers(playing.handle(.abandoned)).isEmpty, "each answered once")
    }
}
