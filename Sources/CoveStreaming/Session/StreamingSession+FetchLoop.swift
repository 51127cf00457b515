import CoveCore
import CoveDASH
import CoveHLS
import Foundation
import Logging
import Synchronization

/// The fetch loop: one task per generation walks the timeline from the start position, waits for room in
/// the forward buffer, chooses each segment's variant (ABR, caps, failover) and hands it to
/// `fetchAndPush`; a failure after its retries excludes the variant for a while (Shaka's failover).
extension StreamingSession {
    // MARK: The fetch loop

    func isCurrent(_ generation: Int) -> Bool {
        state.withLock { !$0.closed && $0.generation == generation } && !Task.isCancelled
    }

    func run(generation: Int, from position: Double?) async {
        do {
            await configuration.readiness()
            guard isCurrent(generation) else { return }
            let presentation = try await loadPresentation()
            guard isCurrent(generation) else { return }
            let startVariant = chooseVariant(presentation, bufferAhead: 0, segmentDuration: nil)
            var timeline = try await loadTimeline(for: startVariant, in: presentation)
            guard isCurrent(generation) else { return }
            try checkSupported(presentation, timeline)
            var startTime = position ?? defaultStart(timeline, presentation: presentation)
            // An on-demand start at or past the end starts in the last second, not at the very end: a fed
            // pipeline whose every video frame falls before its start often never prerolls (the decoder
            // clips them all, and the end of stream does not always reach the sink that waits), so the
            // video would never load. The last second shows, then playing ends.
            if !timeline.isLive, let last = timeline.segments.last, startTime >= last.end - 0.5 {
                startTime = max(last.end - min(1, last.duration / 2), last.start)
            }
            state.withLock { s in if s.generation == generation { s.generationStart = startTime } }
            onEvent(.starting(at: startTime, generation: generation))
            guard var sequence = timeline.index(containing: startTime).map({ timeline.segments[$0].sequence }) else {
                throw StreamingError(.invalidManifest, "The playlist has no segments", url: presentation.variants[startVariant].playlistURL)
            }
            var variant = startVariant
            // The variant a slow download was abandoned for, and where that segment starts: the same
            // media comes from it next (found by time: variants need not number their segments alike).
            var replacement: (variant: Int, start: Double)?
            while isCurrent(generation) {
                // Past an on-demand timeline's last segment: the end goes down now, not after waiting for
                // room (it takes none). Waiting would tie the end to the playhead moving, and a pipeline
                // that holds its last buffers until the end arrives (CI saw DASH stop 6 s short) never
                // moves it.
                if !timeline.isLive, let last = timeline.segments.last, sequence > last.sequence {
                    endStream(generation: generation)
                    return
                }
                if try await waitForRoom(generation: generation, segmentDuration: timeline.targetDuration, presentation: presentation) == false { return }
                variant = replacement?.variant ?? chooseVariant(presentation, bufferAhead: bufferedAhead ?? 0, segmentDuration: timeline.targetDuration)
                timeline = try await loadTimeline(for: variant, in: presentation)
                if let start = replacement?.start, let index = timeline.index(containing: start) {
                    sequence = timeline.segments[index].sequence
                }
                replacement = nil
                guard isCurrent(generation) else { return }
                guard let first = timeline.segments.first, let last = timeline.segments.last else {
                    // A live playlist may be empty for a moment; a VOD one never plays.
                    guard timeline.isLive else {
                        throw StreamingError(.invalidManifest, "The variant's playlist lists no segments", url: presentation.variants[variant].playlistURL)
                    }
                    try await Task.sleep(for: .milliseconds(Int(timeline.targetDuration * 500)))
                    continue
                }
                if sequence > last.sequence {
                    if timeline.isLive {
                        // At the live edge: wait for the playlist to grow.
                        try await Task.sleep(for: .milliseconds(Int(timeline.targetDuration * 500)))
                        continue
                    }
                    endStream(generation: generation)
                    return
                }
                if sequence < first.sequence {
                    // The live window slid past us (a long stall or pause): carry on from its start.
                    sequence = first.sequence
                }
                guard let index = timeline.index(ofSequence: sequence) else {
                    sequence += 1
                    continue
                }
                let segment = timeline.segments[index]
                sequence &+= 1
                if segment.isGap { continue }
                do {
                    if case .abandoned(let lower) = try await fetchAndPush(segment, variant: variant, presentation: presentation, generation: generation) {
                        replacement = (lower, segment.start)
                        sequence &-= 1
                    }
                } catch {
                    guard error.code != .cancelled, failOver(from: variant, in: presentation, after: error) else { throw error }
                    // The same segment again, from another variant.
                    sequence &-= 1
                }
            }
        } catch let error as StreamingError {
            logger.debug("streaming stopped", metadata: ["generation": "\(generation)", "error": "\(error)"])
            report(error, generation: generation)
        } catch {
            logger.trace("streaming cancelled", metadata: ["generation": "\(generation)"])
            // Task.sleep's CancellationError: a seek or teardown.
        }
    }

    /// Everything up to the end was pushed: the input's end of stream follows it.
    func endStream(generation: Int) {
        logger.debug("end of stream pushed", metadata: ["generation": "\(generation)"])
        output.pushEndOfStream(generation: generation)
        state.withLock { s in if s.generation == generation { s.ended = true } }
    }

    /// A variant whose segment failed after its retries is left out for `failoverExclusion` (Shaka's
    /// failover): true when another variant within the app's cap can serve the segment instead.
    func failOver(from variant: Int, in presentation: Presentation, after error: StreamingError) -> Bool {
        guard error.code == .network || error.code == .httpStatus else { return false }
        let (excluded, cap) = state.withLock { s -> ([Int: ContinuousClock.Instant], Int?) in
            s.excludedVariants[variant] = ContinuousClock.now
            return (s.excludedVariants, s.maxBitrate)
        }
        let other = Self.fresh(presentation.variants, excluded: excluded).contains { candidate in cap.map { candidate.bandwidth <= $0 } ?? true }
        if other { logger.notice("variant failed; trying another", metadata: ["variant": "\(variant)", "error": "\(error)"]) }
        return other
    }

    /// How long a failed variant is left out.
    static let failoverExclusion: Duration = .seconds(30)

    /// The variants that have not failed recently.
    static func fresh(_ variants: [VariantTrack], excluded: [Int: ContinuousClock.Instant]) -> [VariantTrack] {
        let now = ContinuousClock.now
        return variants.filter { variant in
            guard let failed = excluded[variant.index] else { return true }
            return now - failed >= failoverExclusion
        }
    }

    func report(_ error: StreamingError, generation: Int) {
        guard error.code != .cancelled, isCurrent(generation) else { return }
        let pushed = state.withLock { s -> Bool in
            if s.generation == generation { s.stoppedOnFailure = true }
            return s.everPushed
        }
        onEvent(pushed ? .downloadFailed(error) : .failed(error))
    }

    /// What this engine cannot play yet fails before anything starts, so the engine can hand the URL on.
    func checkSupported(_ presentation: Presentation, _ timeline: MediaTimeline) throws(StreamingError) {
        let served = protection.servedKeySystems
        let refused = timeline.segments.lazy.first { segment in
            guard let key = segment.key, !SegmentDecryptor.canDecrypt(key) else { return false }
            // Sample encryption of fMP4 under the identity key format or a served key system's format.
            let sampleEncrypted = (key.method == .sampleAES || key.method == .sampleAESCTR) && segment.initSection != nil
            return !(sampleEncrypted && (key.keyFormat == "identity" || KeySystem(hlsKeyFormat: key.keyFormat).map(served.contains) == true))
        }
        if let key = refused?.key {
            throw StreamingError.drmUnsupported(key, url: presentation.manifestURL)
        }
    }

    /// Where playback starts without a position: EXT-X-START, else the start of a VOD or the live edge.
    func defaultStart(_ timeline: MediaTimeline, presentation: Presentation) -> Double {
        if let offset = presentation.startOffset {
            let time = offset >= 0 ? timeline.start + offset : timeline.end + offset
            return min(max(time, timeline.start), timeline.isLive ? timeline.liveEdge : timeline.end)
        }
        return timeline.isLive && !timeline.isEvent ? timeline.liveEdge : timeline.start
    }

    /// Waits while the forward buffer is full. False when the generation is over.
    ///
    /// The target is the app's (the buffer optimizer's), raised — at the measured rate — to two
    /// downloads of the next segment at the variant playing (a segment that arrives late is covered)
    /// and to what lets the best variant the estimate affords pass ABR's arrival check (long segments
    /// do not hold quality down). A small optimizer target stays small on a fast link, where both are
    /// milliseconds.
    func waitForRoom(generation: Int, segmentDuration: Double, presentation: Presentation) async throws -> Bool {
        while isCurrent(generation) {
            let (target, floor) = state.withLock { s -> (Duration, Double) in
                let target = s.forwardBuffer ?? configuration.defaultForwardBuffer
                guard s.estimator.hasEstimate, let playing = s.currentVariant.flatMap({ index in presentation.variants.first { $0.index == index } }) else {
                    return (target, 0)
                }
                let estimate = s.estimator.estimate
                let fresh = Self.fresh(presentation.variants, excluded: s.excludedVariants)
                return (
                    target,
                    max(
                        2 * ABRPolicy.fetchSeconds(bandwidth: playing.bandwidth, segmentDuration: segmentDuration, estimate: estimate),
                        configuration.abr.bufferToAfford(variants: fresh, estimate: estimate, segmentDuration: segmentDuration, cap: s.maxBitrate)
                    )
                )
            }
            let targetSeconds = max(MediaTime(target).seconds, min(floor, MediaTime(configuration.defaultForwardBuffer).seconds))
            guard let ahead = bufferedAhead, ahead >= targetSeconds else { return true }
            logger.trace("forward buffer full", metadata: ["ahead": "\(ahead)", "playhead": "\(output.playheadPosition().map { "\($0)" } ?? "unknown")"])
            // Wake when the playhead should have used the surplus (bounded, so rate changes and
            // forward-buffer changes are seen soon).
            try await Task.sleep(for: .milliseconds(Int(min(max(ahead - targetSeconds, 0.05), 0.5) * 1000)))
        }
        return false
    }

    /// `segmentDuration` nil: not known yet (the first playlist is not loaded), the loaded one's or 6 s.
    func chooseVariant(_ presentation: Presentation, bufferAhead: Double, segmentDuration: Double?) -> Int {
        state.withLock { s -> Int in
            // Recently failed variants are left out (all of them failing: back to the whole ladder).
            let fresh = Self.fresh(presentation.variants, excluded: s.excludedVariants)
            let candidates = fresh.isEmpty ? presentation.variants : fresh
            if !s.estimator.hasEstimate && s.currentVariant == nil {
                // Nothing measured yet: the start policy's variant, if the cap allows it.
                let first = configuration.startsOnLowestVariant ? candidates.min { ($0.bandwidth, $0.index) < ($1.bandwidth, $1.index) } : candidates.first
                if let first, s.maxBitrate.map({ first.bandwidth <= $0 }) ?? true { return first.index }
            }
            let duration = segmentDuration ?? s.timelines.values.first?.timeline.targetDuration ?? 6
            return configuration.abr.choose(
                variants: candidates, current: s.currentVariant, estimate: s.estimator.estimate, bufferAhead: bufferAhead, segmentDuration: duration,
                cap: s.maxBitrate
            )
        }
    }
}
