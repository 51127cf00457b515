/// The seed's shutter: the black cover over the picture (see `ShutterFade`), applied to every player
/// that shows the session — its content and its bumper — and to each new player as it is made, so a
/// shutter closed before `setVideos` covers the first frame.
extension LoopState {
    /// Carries out what the shutter's state machine decided.
    func perform(_ effects: [ShutterFade.Effect]) {
        for effect in effects {
            switch effect {
            case .apply(let opacity):
                for player in shutteredPlayers { player.setShutter(opacity: opacity) }
            case .startTicking(let interval):
                if let runtime = current {
                    arm(.shutterFade, in: runtime, after: interval, repeats: true)
                } else {
                    perform(shutter.finish())
                }
            case .stopTicking:
                current?.timers.cancel(.shutterFade)
            }
        }
    }

    /// A new player starts under the shutter as it stands (nothing to do while it is open).
    func applyShutter(to player: any EnginePlayer) {
        if shutter.opacity > 0 { player.setShutter(opacity: shutter.opacity) }
    }

    /// The session's content and bumper players, and the one prerolling for the next video.
    private var shutteredPlayers: [any EnginePlayer] {
        var players: [any EnginePlayer] = []
        for runtime in [current, preloaded?.runtime].compactMap({ $0 }) {
            if let player = runtime.player { players.append(player) }
            if let bumper = runtime.bumper { players.append(bumper.player) }
        }
        return players
    }

    /// A session taking over mid-fade keeps fading on its own timer.
    func resumeShutterFade(in runtime: SessionRuntime) {
        if shutter.isFading { arm(.shutterFade, in: runtime, after: ShutterFade.tick, repeats: true) }
    }
}
