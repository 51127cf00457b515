import Testing

@testable import CoveCore

/// The bumper's pause/resume reports pair up, whoever paused it, and its first frame is reported once.
@Suite("Bumper playback state")
struct BumperPlaybackStateTests {
    @Test func aPauseBeforeTheEngineRunsIsReportedAndTheEnginesPlayResumes() {
        var bumper = BumperPlayback()
        #expect(bumper.handle(.pauseRequested) == [.stopProgress, .reportPause], "loading: the engine will not report it")
        #expect(bumper.handle(.pauseRequested) == [], "once")
        #expect(bumper.handle(.enginePlaying(stalled: false)) == [.reportResume, .startProgress])
        #expect(bumper.hasPlayed && bumper.engineRunning)
    }

    @Test func theEnginesPauseIsReportedOnlyWhenTheAppPaused() {
        var bumper = BumperPlayback()
        #expect(bumper.handle(.enginePlaying(stalled: false)) == [.startProgress])
        #expect(bumper.handle(.enginePaused(playRequested: true)) == [], "a stall's pause is not the app's")
        #expect(bumper.handle(.enginePlaying(stalled: true)) == [], "stalled: no progress until it refills")
        #expect(bumper.handle(.pauseRequested) == [], "running: the engine's pause will report it")
        #expect(bumper.handle(.enginePaused(playRequested: false)) == [.stopProgress, .reportPause])
        #expect(!bumper.engineRunning)
    }

    @Test func theFirstFrameIsReportedOnce() {
        var bumper = BumperPlayback()
        #expect(bumper.handle(.framePresented(wallTime: 3)) == [.reportFrame(FramePresentation(cause: .bumper, wallTime: 3))])
        #expect(bumper.handle(.framePresented(wallTime: 4)) == [])
    }
}
