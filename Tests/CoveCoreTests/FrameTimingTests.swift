import Testing

@testable import CoveCore

/// Which presented frames are reported, as what and when.
@Suite("Frame timing")
struct FrameTimingTests {
    static func shown(_ t: Double, playing: Bool = true, requested: Bool = true, bumper: Bool = false) -> FrameTiming.Event {
        .presented(wallTime: t, playRequested: requested, isPlaying: playing, bumperPlaying: bumper)
    }

    @Test func theFirstFrameThenOnlyASeeksFrameAreReported() {
        var timing = FrameTiming()
        #expect(timing.handle(Self.shown(10)) == FramePresentation(cause: .start, wallTime: 10))
        #expect(timing.handle(Self.shown(11)) == nil, "later frames are not reported")
        #expect(timing.handle(.seekIssued) == nil)
        #expect(timing.handle(Self.shown(12)) == FramePresentation(cause: .seek, wallTime: 12))
        #expect(timing.handle(Self.shown(13)) == nil)
        _ = timing.handle(.seekIssued)
        _ = timing.handle(.seekAbandoned)
        #expect(timing.handle(Self.shown(14)) == nil, "a failed seek has no frame")
    }

    @Test func aFrameBeforePlayIsHeldAndStampedWhenTheViewerSawIt() {
        var timing = FrameTiming()
        #expect(timing.handle(Self.shown(10, playing: false)) == nil, "prerolled before Play: held")
        #expect(timing.handle(.playStarted(now: 10.2)) == FramePresentation(cause: .start, wallTime: 10), "the frame's own time")
        #expect(timing.handle(.playStarted(now: 11)) == nil, "reported once")

        var paused = FrameTiming()
        _ = paused.handle(Self.shown(10, playing: false))
        _ = paused.handle(.pauseRequested)
        #expect(paused.handle(.playStarted(now: 15)) == FramePresentation(cause: .start, wallTime: 15), "paused in between: seen at Play")
    }

    @Test func aSeekBeforeTheFirstFrameHasNoSeekFrameAndABumperOwnsTheFirst() {
        var timing = FrameTiming()
        _ = timing.handle(.seekIssued)
        #expect(timing.handle(Self.shown(5, bumper: true)) == nil, "the bumper's frame is not the content's")
        #expect(timing.handle(Self.shown(6, requested: false)) == nil, "nobody asked to play")
        #expect(timing.handle(Self.shown(7)) == FramePresentation(cause: .start, wallTime: 7))
    }

    @Test func aReplacedPipelinesHeldFrameNeverPlayedAndTheRebuiltOnesIsTheResume() {
        var timing = FrameTiming()
        _ = timing.handle(Self.shown(10, playing: false))
        _ = timing.handle(.pipelineReplaced)
        #expect(timing.handle(.playStarted(now: 11)) == nil, "the dead pipeline's frame is dropped")
        #expect(timing.handle(Self.shown(12)) == FramePresentation(cause: .start, wallTime: 12), "the new pipeline's first frame stands in")
        _ = timing.handle(.seekIssued)
        _ = timing.handle(.rebuiltPipelineLoaded)
        #expect(timing.handle(Self.shown(13)) == FramePresentation(cause: .resume, wallTime: 13))
        #expect(timing.handle(Self.shown(14)) == nil, "the resume frame also answers the seek")
    }

    @Test func aPreloadedSessionReportsItsTransitionFrame() {
        var timing = FrameTiming()
        _ = timing.handle(.preloadTookOver)
        #expect(timing.handle(Self.shown(3, requested: false)) == nil, "only once playback is wanted")
        #expect(timing.handle(Self.shown(4)) == FramePresentation(cause: .transition, wallTime: 4))
        #expect(timing.reportedFirstFrame)
        #expect(timing.handle(Self.shown(5)) == nil)
    }
}
