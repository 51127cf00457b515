import Testing

@testable import CoveCore

/// When running dry is a stall, when it ends, and when it cannot end by itself.
@Suite("Stall watch")
struct StallWatchTests {
    static let failure = PlaybackError(.downloadFailed, "segments stopped")

    @Test func runningDryDuringWantedPlaybackStallsOnceAndRefillingRecovers() {
        var watch = StallWatch()
        #expect(watch.handle(.buffering(0, counts: true, wanted: true)) == .stalled(failure: nil))
        #expect(watch.handle(.buffering(0, counts: true, wanted: true)) == nil, "one stall, however often the engine says empty")
        #expect(watch.handle(.buffering(60, counts: true, wanted: true)) == nil)
        #expect(watch.bufferingPercent == 60 && watch.isStalled)
        #expect(watch.handle(.buffering(100, counts: true, wanted: true)) == .recovered)
        #expect(!watch.isStalled)
    }

    @Test func loadSeekAndPausedBufferingIsNoStall() {
        var watch = StallWatch()
        #expect(watch.handle(.buffering(0, counts: false, wanted: true)) == nil, "loading or seeking")
        #expect(watch.bufferingPercent == 0, "the level is kept whatever the state")
        #expect(watch.handle(.buffering(0, counts: true, wanted: false)) == nil, "paused: nobody is waiting")
        #expect(watch.handle(.buffering(100, counts: true, wanted: true)) == nil, "no stall to recover from")
    }

    @Test func aStallAfterDownloadsDiedCarriesTheFailure() {
        var watch = StallWatch()
        #expect(watch.handle(.downloadFailed(Self.failure)) == .downloadFailed(Self.failure, whileStalled: false))
        #expect(watch.handle(.downloadFailed(PlaybackError(.notFound, "again"))) == nil, "the first failure is the one reported")
        #expect(watch.handle(.buffering(0, counts: true, wanted: true)) == .stalled(failure: Self.failure))

        var stalledFirst = StallWatch()
        _ = stalledFirst.handle(.buffering(0, counts: true, wanted: true))
        #expect(stalledFirst.handle(.downloadFailed(Self.failure)) == .downloadFailed(Self.failure, whileStalled: true))
    }

    @Test func aNewPipelineClearsTheFailureAndItsLoadOrASeekEndsTheStall() {
        var watch = StallWatch()
        _ = watch.handle(.downloadFailed(Self.failure))
        #expect(watch.handle(.pipelineDied(wanted: true)) == .stalled(failure: nil))
        #expect(watch.handle(.pipelineDied(wanted: true)) == nil)
        _ = watch.handle(.pipelineReplaced)
        #expect(watch.downloadFailure == nil && watch.bufferingPercent == nil && watch.isStalled, "still stalled until it plays")
        #expect(watch.handle(.rebuiltPipelineLoaded) == .recovered)
        _ = watch.handle(.buffering(0, counts: true, wanted: true))
        #expect(watch.handle(.seekFinished) == .recovered)
        _ = watch.handle(.buffering(0, counts: true, wanted: true))
        #expect(watch.handle(.reachedEnd) == nil && !watch.isStalled)
        #expect(watch.handle(.pipelineDied(wanted: false)) == nil, "paused when it died: not a stall")
    }
}
