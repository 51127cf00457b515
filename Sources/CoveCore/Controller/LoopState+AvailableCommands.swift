/// What the controller can do right now (`PlayerCommand`), worked out from the loop's state after every
/// input and published when it changes, so a UI never has to guess from events.
extension LoopState {
    func availableCommandsNow() -> Set<PlayerCommand> {
        var commands: Set<PlayerCommand> = []
        if let index, index + 1 < queue.count { commands.insert(.advanceToNext) }
        // A video being prepared takes play and pause (remembered until it is loaded).
        if preparation != nil { commands.formUnion([.play, .pause, .setVolume]) }
        guard let runtime = current, runtime.phase != .failed, !runtime.session.isTerminated else { return commands }
        commands.formUnion([.play, .pause, .setVolume])
        let loaded = runtime.phase == .ready || runtime.phase == .ended
        let inBumper = runtime.bumper != nil
        if loaded && !inBumper {
            // Live without a DVR window has nowhere to seek to (the window is judged as it is now: it may grow).
            if !runtime.isLive || hasDVRWindow(runtime.seekableRanges) { commands.insert(.seek) }
            // Ads play at 1×.
            if !runtime.hooksState.inAdBreak { commands.insert(.changeRate) }
        }
        if loaded {
            let session = runtime.session
            if session.audioTrackGroup.tracks.count > 1 { commands.insert(.selectAudioTrack) }
            if !session.textTrackGroup.tracks.isEmpty { commands.insert(.selectTextTrack) }
        }
        if let hooks = runtime.hooks { commands = hooks.availableCommands(adjusting: commands) }
        return commands
    }

    func publishAvailableCommands() {
        guard !isShutDown else { return }
        let commands = availableCommandsNow()
        guard commands != publishedCommands else { return }
        publishedCommands = commands
        shared.availableCommands.withLock { $0 = commands }
        emit(.availableCommandsChanged(commands))
    }
}
