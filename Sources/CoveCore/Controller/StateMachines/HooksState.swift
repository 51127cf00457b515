/// What the loop keeps for the plugins beside their hooks (`PlaybackSessionHooks`, SSAI): whether the
/// playhead jumped since the hooks were last told where it is, and whether it is in an ad break a plugin
/// reported — ad breaks play at 1× whatever the app's rate, which applies again once the break is over.
struct HooksState: Equatable {
    /// The playhead jumped (a seek, or a rebuilt pipeline) since the hooks were last told where it is.
    private(set) var playheadJumped = false
    /// A plugin reported an ad break the playhead is in.
    private(set) var inAdBreak = false

    enum Event: Equatable {
        /// The playhead jumped: a seek, or a rebuilt pipeline starting at its own position.
        case playheadJumped
        /// The hooks are told where the playhead is.
        case playheadReported
        /// A plugin reported that the playhead entered an ad break; `appRate`: the rate the app set.
        case adBreakEntered(appRate: Double)
        /// A plugin reported that the ad break is over.
        case adBreakExited(appRate: Double)
        /// The app set a new rate.
        case appRateChanged(Double)
    }

    enum Effect: Equatable {
        /// Tell the hooks that this position follows a jump (playback from where they were told it began is
        /// natural playback).
        case reportJump
        /// Set the engine's rate.
        case setEngineRate(Double)
    }

    /// Takes an event; returns what the loop must do, if anything.
    mutating func handle(_ event: Event) -> Effect? {
        switch event {
        case .playheadJumped:
            playheadJumped = true
            return nil
        case .playheadReported:
            guard playheadJumped else { return nil }
            playheadJumped = false
            return .reportJump
        case .adBreakEntered(let appRate):
            guard !inAdBreak else { return nil }
            inAdBreak = true
            return appRate == 1 ? nil : .setEngineRate(1)
        case .adBreakExited(let appRate):
            guard inAdBreak else { return nil }
            inAdBreak = false
            return appRate == 1 ? nil : .setEngineRate(appRate)
        case .appRateChanged(let rate):
            return inAdBreak ? nil : .setEngineRate(rate)
        }
    }

    /// The rate the engine plays at when the app asks for `appRate`.
    func engineRate(appRate: Double) -> Double {
        inAdBreak ? 1 : appRate
    }
}
