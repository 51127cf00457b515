import CoveCore
import CoveDASH
import CoveHLS
import Foundation
import Logging
import Synchronization

/// One segment: fetched (with its init section and key), decrypted, sampled for the throughput estimate
/// while it arrives (abandoned for a lower variant when it would arrive too late), placed on the timeline
/// and pushed to the output.
extension StreamingSession {
    enum SegmentOutcome {
        case pushed
        /// Its download turned slow and was given up; the same segment comes next from this variant.
        case abandoned(for: Int)
    }

    func fetchAndPush(
        _ segment: SegmentReference, variant: Int, presentation: Presentation, generation: Int
    ) async throws(StreamingError) -> SegmentOutcome {
        let decryption = try await keys.decryption(for: segment.key, sequence: segment.sequence, segmentURL: segment.url)
        let (switched, needsInit) = state.withLock { s -> (Bool, Bool) in
            let switched = s.currentVariant != variant
            let needsInit = segment.initSection.map { section in s.initPushed.map { $0.variant != variant || $0.section != section } ?? true } ?? false
            return (switched, needsInit)
        }
        var initData: Data?
        if needsInit, let section = segment.initSection {
            let loaded = try await loader.load(.initSegment, url: section.url, byteRange: section.byteRange, variantIndex: variant)
            var initBody = try decryption?.initSection(loaded) ?? loaded.body
            if try MediaSniffer.checkSegment(initBody, contentType: loaded.contentType, url: loaded.url) == .isoBMFF {
                initBody = try await prepareProtection(initBody, variant: variant, segment: segment, presentation: presentation, url: loaded.url)
                let timescales = ISOBMFFTiming.timescales(initSegment: initBody)
                state.withLock { $0.timescales[variant] = timescales }
            }
            initData = initBody
        }
        let loaded: StreamingLoader.Loaded
        let unsampled: (bytes: Int, seconds: Double)
        switch try await loadSegment(segment, variant: variant, presentation: presentation) {
        case .loaded(let value, let rest):
            loaded = value
            unsampled = rest
        case .abandoned(let lower):
            return .abandoned(for: lower)
        }
        var body = try decryption?.segment(loaded) ?? loaded.body
        let format = try MediaSniffer.checkSegment(body, contentType: loaded.contentType, url: loaded.url)
        if format == .isoBMFF { body = try await decryptSamples(body, variant: variant, segment: segment, presentation: presentation, url: loaded.url) }
        let target = segment.start + configuration.decoderTimeOffset
        var decoderTime = target
        switch format {
        case .mpegTS:
            let timing = MPEGTSTiming.read(body)
            decoderTime = target - timing.pcrToPTSDelay
            if let pts = timing.earliestPTS {
                state.withLock { s in
                    if s.mpegtsAnchors[segment.discontinuity] == nil { s.mpegtsAnchors[segment.discontinuity] = (Double(pts) / 90_000, segment.start) }
                }
            }
        case .isoBMFF:
            if let timescales = state.withLock({ $0.timescales[variant] }),
                let retimed = ISOBMFFTiming.retimed(fragment: body, timescales: timescales, target: target)
            {
                body = retimed
            }
        default:
            break
        }
        let seconds = MediaTime(loaded.record.duration).seconds
        let (current, previousEnd, firstOfGeneration, newDiscontinuity) = state.withLock { s -> (Bool, Double?, Bool, Bool) in
            s.estimator.sample(bytes: unsampled.bytes, seconds: unsampled.seconds)
            return (!s.closed && s.generation == generation, s.pushedEnd, !s.pushedSomething, s.lastDiscontinuity != segment.discontinuity)
        }
        guard current, !Task.isCancelled else { return .pushed }
        let discontinuity = switched || firstOfGeneration || needsInit || newDiscontinuity || (previousEnd.map { abs($0 - segment.start) > 0.5 } ?? true)
        if let initData, let section = segment.initSection {
            output.push(
                MediaChunk(
                    kind: .initSegment, data: initData, start: segment.start, duration: 0, discontinuity: true, generation: generation, variantIndex: variant,
                    sequence: segment.sequence))
            // Only for this generation: a seek that came meanwhile reset it, and its decoder needs its own.
            state.withLock { s in if s.generation == generation { s.initPushed = (variant, section) } }
        }
        output.push(
            MediaChunk(
                kind: .media, data: body, start: segment.start, decoderTime: decoderTime, duration: segment.duration, discontinuity: discontinuity,
                generation: generation, variantIndex: variant, sequence: segment.sequence))
        let announce = state.withLock { s -> Bool in
            guard s.generation == generation else { return false }
            s.pushedEnd = segment.end
            s.pushedSomething = true
            s.everPushed = true
            s.lastDiscontinuity = segment.discontinuity
            s.currentVariant = variant
            defer { s.reportedVariant = variant }
            return s.reportedVariant != variant
        }
        logger.debug(
            "segment pushed",
            metadata: [
                "sequence": "\(segment.sequence)", "variant": "\(variant)", "bytes": "\(body.count)",
                "ms": "\(Int(seconds * 1000))", "start": "\(segment.start)", "generation": "\(generation)", "discontinuity": "\(discontinuity)",
            ])
        if announce { onEvent(.variantSelected(presentation.variants[variant])) }
        return .pushed
    }

    /// The presentation time a segment carries and the stream it feeds, for its record.
    func span(of segment: SegmentReference) -> MediaTransfer.Span {
        MediaTransfer.Span(start: segment.start, duration: segment.duration, stream: stream)
    }

    enum SegmentLoad: Sendable {
        /// With the part the throughput estimate was not given while it downloaded.
        case loaded(StreamingLoader.Loaded, unsampled: (bytes: Int, seconds: Double))
        case abandoned(for: Int)
    }

    /// Loads a media segment while `AbandonmentRule` watches its progress (every 100 ms) against the
    /// buffer ahead: a download that would outlast the buffer is cancelled for a lower variant, and
    /// what it measured becomes the throughput estimate so the next choices follow the slower link.
    /// The progress also feeds the estimate as it comes (every ≥ 16 kB, as Shaka samples progress
    /// events): a segment during which the link dropped has already pulled the estimate down when it
    /// completes, instead of counting as one average.
    func loadSegment(_ segment: SegmentReference, variant: Int, presentation: Presentation) async throws(StreamingError) -> SegmentLoad {
        let loading = presentation.variants[variant]
        let span = span(of: segment)
        let (fresh, cap) = state.withLock { s in (Self.fresh(presentation.variants, excluded: s.excludedVariants), s.maxBitrate) }
        let lower = fresh.filter { candidate in candidate.bandwidth < loading.bandwidth && (cap.map { candidate.bandwidth <= $0 } ?? true) }
        guard !lower.isEmpty, bufferedAhead != nil else {
            let loaded = try await loader.load(.segment, url: segment.url, byteRange: segment.byteRange, variantIndex: variant, span: span)
            return .loaded(loaded, unsampled: (loaded.body.count, MediaTime(loaded.record.duration).seconds))
        }
        let progress = ProgressBox()
        let cursor = SampleCursor()
        let minimumSample = configuration.throughput.minimumBytes
        let clock = configuration.transferClock
        let begin = clock.now()
        let rule = configuration.abandonment
        do {
            return try await withThrowingTaskGroup(of: SegmentLoad.self) { group in
                group.addTask { [loader] in
                    let loaded = try await loader.load(
                        .segment, url: segment.url, byteRange: segment.byteRange, variantIndex: variant, span: span, progress: { progress.set($0) })
                    // What the watch has not given the estimator yet, on the watch's clock.
                    let done = cursor.done
                    return .loaded(loaded, unsampled: (loaded.body.count - done.bytes, MediaTime(clock.now() - begin).seconds - done.seconds))
                }
                group.addTask { [self] in
                    // (seconds since the request, bytes received) every 100 ms: the rate of the last half second.
                    var history: [(at: Double, received: Int)] = []
                    while true {
                        try await Task.sleep(for: .milliseconds(100))
                        let elapsed = MediaTime(clock.now() - begin).seconds
                        // No report yet: the response head is not in, or the transport reports only whole
                        // bodies. Nothing to judge either way.
                        guard let now = progress.get() else { continue }
                        if let last = history.last, now.received < last.received {
                            // A retry or a redirect started the body over: measure it from here.
                            history.removeAll()
                            cursor.restart(at: elapsed)
                        }
                        history.append((elapsed, now.received))
                        history.removeAll { elapsed - $0.at > 0.55 }
                        if let step = cursor.advance(to: now.received, at: elapsed, minimumBytes: minimumSample) {
                            state.withLock { $0.estimator.sample(bytes: step.bytes, seconds: step.seconds) }
                        }
                        guard let ahead = bufferedAhead else { continue }
                        let attemptElapsed = elapsed - cursor.attemptStart
                        let recentRate = history.first.flatMap { first -> Double? in
                            elapsed - first.at >= 0.45 ? Double(now.received - first.received) / (elapsed - first.at) : nil
                        }
                        guard
                            let replacement = rule.replacement(
                                elapsed: attemptElapsed, received: now.received, recentRate: recentRate, expected: now.expected,
                                segmentDuration: segment.duration, loading: loading, variants: lower, bufferAhead: ahead
                            )
                        else { continue }
                        // The link is now what this download measured (the slower of its average and its last
                        // half second); nothing measured: what the replacement needs.
                        let average = attemptElapsed > 0 ? Double(now.received) / attemptElapsed : 0
                        let measured = min(average, recentRate ?? average) * 8
                        let replacementBandwidth = lower.first { $0.index == replacement }.map { Double($0.bandwidth) } ?? 0
                        state.withLock { $0.estimator.restart(at: measured > 0 ? measured : replacementBandwidth) }
                        logger.notice(
                            "slow segment download abandoned for a lower variant",
                            metadata: [
                                "sequence": "\(segment.sequence)", "variant": "\(variant)", "replacement": "\(replacement)",
                                "received": "\(now.received)", "elapsed": "\(attemptElapsed)", "ahead": "\(ahead)",
                            ])
                        return .abandoned(for: replacement)
                    }
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw CancellationError() }
                return first
            }
        } catch let error as StreamingError {
            throw error
        } catch {
            throw StreamingError(.cancelled, "The segment request was cancelled", url: segment.url)
        }
    }
}
