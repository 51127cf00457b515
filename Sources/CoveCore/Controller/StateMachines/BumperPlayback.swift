/// The bumper's own play/pause reporting: `BumperPause`/`BumperResume` pair up whoever caused them
/// (the app, the engine, a stall), and its first frame is reported once.
struct BumperPlayback: Equatable {
    /// The bumper's engine clock is running.
    private(set) var engineRunning = false
    /// The bumper's engine reached playing at least once.
    private(set) var hasPlayed = false
    /// `BumperPause` was reported and `BumperResume` not yet.
    private(set) var isPaused = false
    private var reportedFirstFrame = false

    enum Event: Equatable {
        /// The engine started playing; `stalled`: the bumper is waiting for data.
        case enginePlaying(stalled: Bool)
        /// The engine paused; `playRequested`: the app still wants playback (a stall or a seek paused it).
        case enginePaused(playRequested: Bool)
        /// The app paused.
        case pauseRequested
        /// The engine presented a frame at `wallTime`.
        case framePresented(wallTime: Double)
    }

    enum Effect: Equatable {
        case reportResume
        case reportPause
        case startProgress
        case stopProgress
        case reportFrame(FramePresentation)
    }

    /// Takes an event; returns what the loop must do, in order.
    mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .enginePlaying(let stalled):
            engineRunning = true
            hasPlayed = true
            var effects: [Effect] = []
            if isPaused {
                isPaused = false
                effects.append(.reportResume)
            }
            if !stalled { effects.append(.startProgress) }
            return effects
        case .enginePaused(let playRequested):
            engineRunning = false
            return playRequested ? [] : pause()
        case .pauseRequested:
            // Loading or stalled, the engine will not report a pause: report it here.
            return engineRunning ? [] : pause()
        case .framePresented(let wallTime):
            guard !reportedFirstFrame else { return [] }
            reportedFirstFrame = true
            return [.reportFrame(FramePresentation(cause: .bumper, wallTime: wallTime))]
        }
    }

    private mutating func pause() -> [Effect] {
        guard !isPaused else { return [] }
        isPaused = true
        return [.stopProgress, .reportPause]
    }
}
