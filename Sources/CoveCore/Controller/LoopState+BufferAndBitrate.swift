import Foundation
import Logging

/// Tuning a playing session: the forward-buffer optimizer, bitrate caps, and the variant switches they
/// cause (attributed to the cap, a low-variant seek or the adaptation).
extension LoopState {
    // MARK: Buffer optimizer

    /// Counts natural playback (not seeks or rebuilds, which clear `lastWatchedPosition`) and grows the
    /// forward buffer with it.
    func watched(_ position: MediaTime, in runtime: SessionRuntime) {
        if runtime.intent.isPlaying, let last = runtime.lastWatchedPosition, position > last, let step = position.offset(from: last) {
            runtime.watched += step
        }
        runtime.lastWatchedPosition = runtime.intent.isPlaying ? position : nil
        guard let target = settings.bufferOptimizer.target(afterWatching: runtime.watched) else {
            if runtime.appliedBufferTarget != nil {
                // The app switched the optimizer off: hand buffering back to the engine.
                runtime.appliedBufferTarget = nil
                runtime.player?.setForwardBufferDuration(nil)
            }
            return
        }
        // Whole-second steps keep engine calls rare; the cap itself is always reached exactly.
        if let applied = runtime.appliedBufferTarget,
            applied == target || (abs(MediaTime(target - applied).seconds) < 1 && target != settings.bufferOptimizer.maximum)
        {
            return
        }
        runtime.appliedBufferTarget = target
        runtime.player?.setForwardBufferDuration(target)
        emit(.forwardBufferChanged(runtime.session, target))
    }

    // MARK: Bitrate

    /// The engine's cap: the lower of the preferred peak bit rate and the resolution cap's bitrate.
    private func effectiveBitrateCap(_ runtime: SessionRuntime) -> Int? {
        let current = settings
        let resolutionCap = current.maximumResolution.flatMap { runtime.ladder.bitrateCap(maximumWidth: $0.width, maximumHeight: $0.height) }
        return [current.peakBitrate, resolutionCap].compactMap { $0 }.min()
    }

    func applyBitrateCap(_ runtime: SessionRuntime, capChanged: Bool) {
        let cap = effectiveBitrateCap(runtime)
        guard cap != runtime.appliedBitrateCap else { return }
        runtime.appliedBitrateCap = cap
        if capChanged { runtime.variantAttribution.handle(.capChanged) }
        runtime.player?.setMaxBitrate(cap)
    }

    func variantChanged(_ runtime: SessionRuntime, bandwidth: Int, url: String) {
        guard runtime.activeVariant?.bandwidth != bandwidth else { return }
        let to = runtime.ladder.variant(bandwidth: bandwidth) ?? Variant(bandwidth: bandwidth, url: url)
        let from = runtime.activeVariant
        let reason = runtime.variantAttribution.switched(from: from, to: to, cap: runtime.appliedBitrateCap)
        runtime.activeVariant = to
        emit(.variantChanged(runtime.session, VariantChange(from: from, to: to, reason: reason)))
    }
}
