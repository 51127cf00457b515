import Testing

@testable import CoveCore

/// When `Play` and `Pause` are reported, which play is the first, and what holds playback the app wants.
@Suite("Play intent")
struct PlayIntentTests {
    @Test func playIsReportedOnceWantedLoadedAndRunningAndTheFirstIsMarked() {
        var intent = PlayIntent()
        #expect(intent.handle(.engineStarted(loaded: true)) == [], "nobody asked to play")
        #expect(intent.isEngineRunning && !intent.isPlaying)
        #expect(intent.handle(.playRequested) == [], "asking only records the wish")
        #expect(intent.isRequested)
        #expect(intent.handle(.playSent(loaded: true)) == [.reportPlay(first: true)], "the engine already runs: it will not say so again")
        #expect(intent.isPlaying && intent.hasPlayed)
        #expect(intent.handle(.playSent(loaded: true)) == [], "reported once")
        #expect(intent.handle(.engineStarted(loaded: true)) == [])

        var loading = PlayIntent()
        _ = loading.handle(.playRequested)
        #expect(loading.handle(.engineStarted(loaded: false)) == [], "not loaded yet")
        #expect(loading.handle(.loaded) == [.reportPlay(first: true)], "loaded with the clock running")
    }

    @Test func theEnginesPauseIsReportedOnlyWhenTheAppPaused() {
        var intent = PlayIntent()
        _ = intent.handle(.playRequested)
        #expect(intent.handle(.engineStarted(loaded: true)) == [.reportPlay(first: true)])
        #expect(intent.handle(.engineStopped) == [], "wanted: a stall or a seek stopped the clock")
        #expect(intent.isPlaying && !intent.isEngineRunning)
        #expect(intent.handle(.pauseRequested) == [], "asking only records the wish")
        #expect(intent.handle(.engineStarted(loaded: true)) == [])
        #expect(intent.handle(.pauseSent) == [], "the clock runs: its stop will report the pause")
        #expect(intent.handle(.engineStopped) == [.reportPause])
        #expect(!intent.isPlaying && intent.pausedBy == .app)
        _ = intent.handle(.playRequested)
        #expect(intent.handle(.engineStarted(loaded: true)) == [.reportPlay(first: false)], "played before: not the first play")
    }

    @Test func aPauseSentWhileTheClockIsStoppedIsReportedAtOnce() {
        var intent = PlayIntent()
        _ = intent.handle(.playRequested)
        _ = intent.handle(.engineStarted(loaded: true))
        _ = intent.handle(.engineStopped)
        _ = intent.handle(.pauseRequested)
        #expect(intent.handle(.pauseSent) == [.reportPause], "stalled or not started: the engine will not report it")
        #expect(intent.handle(.pauseSent) == [])

        var neverPlayed = PlayIntent()
        _ = neverPlayed.handle(.pauseRequested)
        #expect(neverPlayed.handle(.pauseSent) == [], "no Play, no Pause")
    }

    @Test func aStallHoldsPlayUntilItIsReleased() {
        var intent = PlayIntent()
        _ = intent.handle(.playRequested)
        _ = intent.handle(.held(.stall))
        #expect(intent.pausedBy == .stall)
        #expect(intent.handle(.engineStarted(loaded: true)) == [], "held: no Play while the buffer is empty")
        #expect(intent.handle(.released(.stall)) == [], "releasing changes nothing by itself")
        #expect(intent.pausedBy == nil)
        #expect(intent.handle(.playSent(loaded: true)) == [.reportPlay(first: true)])

        var paused = PlayIntent()
        _ = paused.handle(.held(.stall))
        #expect(paused.pausedBy == .app, "the app's pause comes first")
    }

    @Test func aRebuiltPipelineCarriesOnAsWanted() {
        var playing = PlayIntent()
        _ = playing.handle(.playRequested)
        _ = playing.handle(.engineStarted(loaded: true))
        _ = playing.handle(.pipelineReplaced)
        #expect(!playing.isEngineRunning && playing.isPlaying, "the dead pipeline's clock stopped; Play stands")
        #expect(playing.handle(.rebuiltPipelineLoaded) == [.resumeProgress])

        var waiting = PlayIntent()
        _ = waiting.handle(.playRequested)
        _ = waiting.handle(.engineStarted(loaded: false))
        #expect(waiting.handle(.rebuiltPipelineLoaded) == [.reportPlay(first: true)], "already running: Play now")
        var notRunning = PlayIntent()
        _ = notRunning.handle(.playRequested)
        #expect(notRunning.handle(.rebuiltPipelineLoaded) == [], "Play comes with the engine's clock")

        var resumedPaused = PlayIntent()
        _ = resumedPaused.handle(.playRequested)
        _ = resumedPaused.handle(.engineStarted(loaded: true))
        _ = resumedPaused.handle(.pipelineReplaced)
        _ = resumedPaused.handle(.resumed(autoPlay: false))
        #expect(!resumedPaused.isRequested)
        #expect(resumedPaused.handle(.rebuiltPipelineLoaded) == [.reportPause], "resumed without playing")
        #expect(!resumedPaused.isPlaying)
        _ = resumedPaused.handle(.resumed(autoPlay: true))
        #expect(resumedPaused.isRequested)
    }

    @Test func theBumperHoldsTheContentAndItsExitHandsPlaybackOver() {
        var intent = PlayIntent()
        _ = intent.handle(.playRequested)
        _ = intent.handle(.held(.bumper))
        #expect(intent.pausedBy == .bumper)
        _ = intent.handle(.released(.bumper))
        #expect(intent.pausedBy == nil)
        #expect(intent.handle(.contentsTurn(loaded: false)) == [.playEngine], "loading: Play comes when it is ready")

        var runningUnreported = PlayIntent()
        _ = runningUnreported.handle(.engineStarted(loaded: true))
        _ = runningUnreported.handle(.playRequested)
        #expect(runningUnreported.handle(.contentsTurn(loaded: true)) == [.playEngine, .reportPlay(first: true)])

        var paused = PlayIntent()
        #expect(paused.handle(.contentsTurn(loaded: true)) == [], "not wanted: the content waits")
    }

    @Test func aDeferredLoadWaitsForTheContentsTurn() {
        var intent = PlayIntent()
        _ = intent.handle(.held(.bumper))
        _ = intent.handle(.loadDeferred)
        _ = intent.handle(.playRequested)
        #expect(intent.isLoadDeferred && intent.pausedBy == .bumper)
        _ = intent.handle(.released(.bumper))
        #expect(intent.pausedBy == .waitingToLoad)
        #expect(intent.handle(.contentsTurn(loaded: false)) == [.loadEngine(playWhenReady: true)])
        #expect(!intent.isLoadDeferred)
        #expect(intent.handle(.contentsTurn(loaded: false)) == [.playEngine], "loaded once")

        var paused = PlayIntent()
        _ = paused.handle(.loadDeferred)
        #expect(paused.handle(.contentsTurn(loaded: false)) == [.loadEngine(playWhenReady: false)], "it loads paused")
    }

    @Test func aStoppedSessionWantsNothingAndReportsNoPause() {
        var intent = PlayIntent()
        _ = intent.handle(.playRequested)
        _ = intent.handle(.engineStarted(loaded: true))
        #expect(intent.handle(.stopped) == [], "the end (or Fail) says it; no Pause")
        #expect(!intent.isRequested && !intent.isPlaying && intent.hasPlayed)
        #expect(intent.handle(.engineStopped) == [])
        _ = intent.handle(.playRequested)
        #expect(intent.handle(.engineStarted(loaded: true)) == [.reportPlay(first: false)])
    }
}
