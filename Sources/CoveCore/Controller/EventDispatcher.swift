import Synchronization

/// Fans events out to `events` subscribers and, through one ordered delivery task, to the delegate,
/// the session consumers and completion handlers.
///
/// The controller loop never runs app code: it only enqueues. Consumer registration travels through
/// the same queue as events, so a consumer added mid-session gets the current session first and then
/// exactly the events that follow.
final class EventDispatcher: Sendable {
    enum Delivery: Sendable {
        case event(PlaybackEvent)
        case addConsumer(any PlaybackSessionConsumer, current: PlaybackSession?)
        case removeConsumer(ObjectIdentifier)
        case callback(@Sendable () -> Void)
    }

    private struct Subscribers {
        var streams: [Int: AsyncStream<PlaybackEvent>.Continuation] = [:]
        var nextID = 0
        var finished = false
    }

    /// One lock for the subscriber list and the finished flag, so a subscription cannot slip past `finish()`.
    private let subscribers = Mutex(Subscribers())
    private let delivery: AsyncStream<Delivery>.Continuation

    /// `controller` is looked up at delivery time, so the dispatcher never keeps the controller alive.
    /// Every call into app code goes through `executor`, one at a time, in order.
    init(
        delegate: @escaping @Sendable () -> (any PlaybackControllerDelegate)?, controller: @escaping @Sendable () -> PlaybackController?,
        executor: CallbackExecutor = .deliveryTask
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: Delivery.self, bufferingPolicy: .unbounded)
        delivery = continuation
        Task.detached {
            var consumers: [any PlaybackSessionConsumer] = []
            for await item in stream {
                switch item {
                case .addConsumer(let consumer, let current):
                    guard !consumers.contains(where: { $0 === consumer }) else { continue }
                    consumers.append(consumer)
                    if let current { await executor.perform { consumer.didAdvance(to: current) } }
                case .removeConsumer(let id):
                    consumers.removeAll { ObjectIdentifier($0) == id }
                case .callback(let body):
                    await executor.perform(body)
                case .event(let event):
                    let targets = consumers
                    let delegate = delegate()
                    let controller = controller()
                    guard !targets.isEmpty || (delegate != nil && controller != nil) else { continue }
                    await executor.perform {
                        for consumer in targets { Self.deliver(event, to: consumer) }
                        if let delegate, let controller { Self.deliver(event, to: delegate, controller: controller) }
                    }
                }
            }
        }
    }

    func subscribe() -> AsyncStream<PlaybackEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PlaybackEvent.self, bufferingPolicy: .unbounded)
        let id = subscribers.withLock { s -> Int? in
            guard !s.finished else { return nil }
            s.nextID += 1
            s.streams[s.nextID] = continuation
            return s.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    func emit(_ event: PlaybackEvent) {
        // Every event passes here: its error leaves with the severity its kind means.
        let event = event.withErrorSeverity()
        let targets = subscribers.withLock { Array($0.streams.values) }
        for target in targets { target.yield(event) }
        delivery.yield(.event(event))
    }

    func enqueue(_ item: Delivery) {
        delivery.yield(item)
    }

    /// Ends every stream; callbacks already queued are still delivered.
    func finish() {
        let targets = subscribers.withLock { s -> [AsyncStream<PlaybackEvent>.Continuation] in
            s.finished = true
            defer { s.streams.removeAll() }
            return Array(s.streams.values)
        }
        for target in targets { target.finish() }
        delivery.finish()
    }

    private static func deliver(_ event: PlaybackEvent, to consumer: any PlaybackSessionConsumer) {
        switch event {
        case .sessionAdvanced(let s): consumer.didAdvance(to: s)
        case .lifecycle(let s, let e):
            consumer.playbackSession(s, didReceive: e)
            if let bumper = s.bumper {
                switch e {
                case .bumperEnter: consumer.playbackSession(s, didEnterBumper: bumper)
                case .bumperExit: consumer.playbackSession(s, didExitBumper: bumper)
                case .bumperPause: consumer.playbackSession(s, didPauseBumper: bumper)
                case .bumperResume: consumer.playbackSession(s, didResumeBumper: bumper)
                case .bumperProgress(let t): consumer.playbackSession(s, bumper: bumper, didProgressTo: t)
                default: break
                }
            }
        case .progress(let s, let t): consumer.playbackSession(s, didProgressTo: t)
        case .durationChanged(let s, let d): consumer.playbackSession(s, didChangeDuration: d)
        case .cuePointsPassed(let s, let p): consumer.playbackSession(s, didPassCuePoints: p)
        case .seekableRangesChanged(let s, let r): consumer.playbackSession(s, didChangeSeekableRanges: r)
        case .mediaTypeDetermined(let s, let m): consumer.playbackSession(s, determinedMediaType: m)
        case .textCuesChanged(let s, let c): consumer.playbackSession(s, didChangeTextCues: c)
        case .playlistCompleted(let v): consumer.didCompletePlaylist(v)
        case .adSequenceEntered(let s, let q): consumer.playbackSession(s, didEnterAdSequence: q)
        case .adSequenceExited(let s, let q): consumer.playbackSession(s, didExitAdSequence: q)
        case .adEntered(let s, let a): consumer.playbackSession(s, didEnterAd: a)
        case .adExited(let s, let a): consumer.playbackSession(s, didExitAd: a)
        case .adProgressed(let s, let p): consumer.playbackSession(s, ad: p.ad, didProgressTo: p.time)
        case .adPaused(let s, let a): consumer.playbackSession(s, didPauseAd: a)
        case .adResumed(let s, let a): consumer.playbackSession(s, didResumeAd: a)
        default: break
        }
        consumer.didReceive(event)
    }

    private static func deliver(_ event: PlaybackEvent, to delegate: any PlaybackControllerDelegate, controller c: PlaybackController) {
        switch event {
        case .sessionAdvanced(let s): delegate.playbackController(c, didAdvanceTo: s)
        case .lifecycle(let s, let e):
            delegate.playbackController(c, playbackSession: s, didReceive: e)
            if let bumper = s.bumper {
                switch e {
                case .bumperEnter: delegate.playbackController(c, playbackSession: s, didEnterBumper: bumper)
                case .bumperExit: delegate.playbackController(c, playbackSession: s, didExitBumper: bumper)
                case .bumperPause: delegate.playbackController(c, playbackSession: s, didPauseBumper: bumper)
                case .bumperResume: delegate.playbackController(c, playbackSession: s, didResumeBumper: bumper)
                case .bumperProgress(let t): delegate.playbackController(c, playbackSession: s, bumper: bumper, didProgressTo: t)
                default: break
                }
            }
        case .progress(let s, let t): delegate.playbackController(c, playbackSession: s, didProgressTo: t)
        case .durationChanged(let s, let d): delegate.playbackController(c, playbackSession: s, didChangeDuration: d)
        case .cuePointsPassed(let s, let p): delegate.playbackController(c, playbackSession: s, didPassCuePoints: p)
        case .seekableRangesChanged(let s, let r): delegate.playbackController(c, playbackSession: s, didChangeSeekableRanges: r)
        case .mediaTypeDetermined(let s, let m): delegate.playbackController(c, playbackSession: s, determinedMediaType: m)
        case .videoTypeDetermined(let s, let v): delegate.playbackController(c, determinedVideoType: v, for: s.video)
        case .codecsDetermined(let s, let codecs): delegate.playbackController(c, determinedCodecs: codecs, for: s.video)
        case .audioTrackSelected(let s, let t): delegate.playbackController(c, playbackSession: s, didChangeSelectedAudioTrack: t)
        case .textTrackSelected(let s, let t): delegate.playbackController(c, playbackSession: s, didChangeSelectedTextTrack: t)
        case .playlistCompleted(let v): delegate.playbackController(c, didCompletePlaylist: v)
        case .noPlayableVideosFound(let v): delegate.playbackController(c, noPlayableVideosFound: v)
        case .videoInserted(let v, let i): delegate.playbackController(c, didInsert: v, at: i)
        case .videoInsertionFailed(let v, let e): delegate.playbackController(c, failedToInsert: v, error: e)
        case .availableCommandsChanged(let commands): delegate.playbackController(c, didChangeAvailableCommands: commands)
        case .adSequenceEntered(let s, let q):
            (delegate as? any PlaybackControllerAdsDelegate)?.playbackController(c, playbackSession: s, didEnterAdSequence: q)
        case .adSequenceExited(let s, let q): (delegate as? any PlaybackControllerAdsDelegate)?.playbackController(c, playbackSession: s, didExitAdSequence: q)
        case .adEntered(let s, let a): (delegate as? any PlaybackControllerAdsDelegate)?.playbackController(c, playbackSession: s, didEnterAd: a)
        case .adExited(let s, let a): (delegate as? any PlaybackControllerAdsDelegate)?.playbackController(c, playbackSession: s, didExitAd: a)
        case .adProgressed(let s, let p):
            (delegate as? any PlaybackControllerAdsDelegate)?.playbackController(c, playbackSession: s, ad: p.ad, didProgressTo: p.time)
        case .adPaused(let s, let a): (delegate as? any PlaybackControllerAdsDelegate)?.playbackController(c, playbackSession: s, didPauseAd: a)
        case .adResumed(let s, let a): (delegate as? any PlaybackControllerAdsDelegate)?.playbackController(c, playbackSession: s, didResumeAd: a)
        case .maxConcurrencyReached(let s, let sessions): delegate.playbackController(c, playbackSession: s, didReachMaxConcurrency: sessions)
        case .variantChanged, .framePresented, .variantsDiscovered, .mediaTransferred, .forwardBufferChanged, .volumeChanged, .retry, .keyStatusesChanged,
            .textCuesChanged,
            .adSkipped:
            break
        }
        delegate.playbackController(c, didReceive: event)
    }
}
