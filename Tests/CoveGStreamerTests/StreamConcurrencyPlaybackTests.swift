import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import Testing

/// Stream concurrency on the real engine: the rights-checking catalog and the concurrency stand-in on
/// one loopback server, a token with `uid` and `climit = 1`, heartbeats every 0.5 s.
extension RealEngineTests {
    @Suite("Stream concurrency on the real engine", .serialized)
    struct StreamConcurrencyPlaybackTests {
        let logs = LogCapture()

        struct Setup {
            let catalog: CatalogServer
            let concurrency: ConcurrencyServer
            let video: Video
            let token: String

            func stop() async { await catalog.stop() }
        }

        static func start() async throws -> Setup {
            let catalog = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
            let concurrency = ConcurrencyServer(on: catalog.media, interval: .milliseconds(500), secret: SampleCatalog.rightsSecret)
            let token = try await PlaybackRightsSigner(secret: SampleCatalog.rightsSecret).token(
                account: catalog.accountID, userID: "viewer-1", concurrencyLimit: 1)
            let service = PlaybackService(accountID: catalog.accountID, policyKey: nil, baseURL: catalog.baseURL, transport: AsyncHTTPClientTransport.shared)
            let video = try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder, authToken: token)).value
            return Setup(catalog: catalog, concurrency: concurrency, video: video, token: token)
        }

        /// A controller on its own device: its own slot name.
        func controller(_ s: Setup, device: String, fast: Bool = false) -> PlaybackController {
            let provider = StreamConcurrencySessionProvider(
                upstream: BasicSessionProvider(),
                service: StreamConcurrencyService(accountID: s.catalog.accountID, baseURL: s.concurrency.baseURL, transport: AsyncHTTPClientTransport.shared),
                sessionID: device, logger: logs.logger(label: "cove.stream-concurrency", level: .debug)
            )
            let configuration = PlaybackControllerConfiguration(
                progressInterval: .milliseconds(100), videoOutput: .headless, pacing: fast ? .unsynchronized : .realTime, logger: logs.logger(level: .debug)
            )
            return PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer")), sessionProvider: provider, configuration: configuration)
        }

        static func progress(_ recorder: EventRecorder) -> MediaTime { recorder.progress.last ?? .zero }

        /// Two viewers' devices, one slot: the second stream is refused with the active sessions before it
        /// loads anything, and the first plays on, renewing its slot; once the first stops, its slot is released.
        @Test func theSecondStreamIsRefusedWhileTheFirstPlaysOn() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            let first = controller(s, device: "living-room")
            let firstRecorder = EventRecorder(first)
            first.isAutoPlay = true
            first.setVideos([s.video])
            try await firstRecorder.waitFor(timeout: .seconds(20)) { if case .progress(_, let t) = $0 { t >= .seconds(1) } else { false } }
            #expect(
                await s.concurrency.waitForCall { $0.kind == .renewal && $0.sessionID == "living-room" && $0.accepted } != nil,
                "the playing stream renews its slot")

            let second = controller(s, device: "kitchen")
            let secondRecorder = EventRecorder(second)
            second.isAutoPlay = true
            second.setVideos([s.video])
            let failed = try await secondRecorder.waitFor(.fail, timeout: .seconds(5))
            let error = try #require(failed.lifecycleEvent?.error)
            #expect(error.code == .playbackRightsDenied, "\(error)")
            #expect(error.message.contains("streamLimit"))
            let reached = secondRecorder.events.compactMap { if case .maxConcurrencyReached(_, let sessions) = $0 { sessions } else { nil } }
            #expect(reached.count == 1)
            #expect(reached.first?.compactMap { $0["sid"]?.stringValue } == ["living-room"])
            #expect(!secondRecorder.lifecycleNames.contains("Ready"), "\(secondRecorder.lifecycleNames)")
            #expect(!secondRecorder.events.contains { if case .mediaTransferred = $0 { true } else { false } }, "the refused stream fetched media")
            #expect(s.concurrency.calls.contains { $0.sessionID == "kitchen" && $0.kind == .start && !$0.accepted })

            // The first plays on: another second of media, another renewal, no error.
            let atRefusal = Self.progress(firstRecorder)
            try await firstRecorder.waitFor(timeout: .seconds(10)) {
                if case .progress(_, let t) = $0 { t >= atRefusal.advanced(by: .seconds(1)) } else { false }
            }
            let refusedAt = Date()
            #expect(await s.concurrency.waitForCall { $0.kind == .renewal && $0.sessionID == "living-room" && $0.at > refusedAt } != nil)
            #expect(firstRecorder.errors.isEmpty, "\(firstRecorder.errors)")

            // Stopping the first frees its slot at once: the second device may play now.
            first.shutdown()
            #expect(await s.concurrency.waitForCall { $0.kind == .release && $0.sessionID == "living-room" } != nil)
            #expect(s.concurrency.activeSessions(of: "viewer-1").isEmpty)
            second.setVideos([s.video])
            try await secondRecorder.waitFor(.play, from: secondRecorder.count, timeout: .seconds(20))
            second.shutdown()
            #expect(!logs.text.contains(s.token), "the token appeared in a log line")
        }

        /// A playlist on one device: each video takes the slot the previous one released, in that order (the
        /// release must land before the next take, or it would free the slot just taken).
        @Test func aPlaylistAdvancesOnTheSameSlot() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            let service = PlaybackService(
                accountID: s.catalog.accountID, policyKey: nil, baseURL: s.catalog.baseURL, transport: AsyncHTTPClientTransport.shared)
            let next = try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.audioOnly, authToken: s.token)).value
            let controller = controller(s, device: "den", fast: true)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.isAutoAdvance = true
            controller.setVideos([s.video, next])
            try await recorder.waitFor(timeout: .seconds(60)) { if case .playlistCompleted = $0 { true } else { false } }
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            let calls = s.concurrency.calls.filter { $0.sessionID == "den" && $0.kind != .renewal }.map(\.kind)
            #expect(Array(calls.prefix(3)) == [.start, .release, .start], "\(calls)")
            #expect(s.concurrency.calls.filter { $0.sessionID == "den" }.allSatisfy { $0.accepted })
            controller.shutdown()
        }

        /// One failed heartbeat (HTTP 500) is a hiccup: the stream plays on and the next heartbeat renews.
        @Test func aFailedHeartbeatDoesNotStopTheStream() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            let controller = controller(s, device: "tv")
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([s.video])
            try await recorder.waitFor(.play, timeout: .seconds(20))
            s.catalog.media.forceStatus(500, forPathsContaining: "/sessions", count: 1)
            let forcedAt = Date()
            // The forced answer never reaches the stand-in; the renewal after it does, and is accepted.
            #expect(await s.concurrency.waitForCall { $0.kind == .renewal && $0.at > forcedAt && $0.accepted } != nil)
            let failedBeats = s.catalog.media.requests.filter { $0.path.hasSuffix("/sessions") && $0.status == 500 }
            #expect(failedBeats.count == 1)
            let at = Self.progress(recorder)
            try await recorder.waitFor(timeout: .seconds(10)) { if case .progress(_, let t) = $0 { t >= at.advanced(by: .milliseconds(500)) } else { false } }
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            controller.shutdown()
        }

        /// Paused, no heartbeat is sent (the slot lapses as the service expects); playing again renews it.
        @Test func heartbeatsStopWhilePausedAndResumeWithPlayback() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            let controller = controller(s, device: "tablet")
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([s.video])
            try await recorder.waitFor(.play, timeout: .seconds(20))
            #expect(await s.concurrency.waitForCall { $0.kind == .renewal && $0.sessionID == "tablet" } != nil)
            controller.pause()
            try await recorder.waitFor(.pause, from: recorder.count)
            let pausedAt = Date()
            // Absence cannot be awaited: three intervals pass with nothing sent.
            try await Task.sleep(for: .milliseconds(1600))
            #expect(!s.concurrency.calls.contains { $0.at > pausedAt.addingTimeInterval(0.1) }, "\(s.concurrency.calls)")
            let resumedAt = Date()
            controller.play()
            #expect(await s.concurrency.waitForCall { $0.kind == .renewal && $0.at > resumedAt && $0.accepted } != nil)
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            controller.shutdown()
        }

        /// Another device took the viewer's only slot while this one was renewing: the renewal is refused,
        /// and the stream stops with the active sessions and a typed error.
        @Test func aRefusedRenewalStopsTheStream() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            let controller = controller(s, device: "phone")
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([s.video])
            try await recorder.waitFor(.play, timeout: .seconds(20))
            s.concurrency.revoke(userID: "viewer-1", sessionID: "phone")
            let service = StreamConcurrencyService(accountID: s.catalog.accountID, baseURL: s.concurrency.baseURL, transport: AsyncHTTPClientTransport.shared)
            _ = try await service.heartbeat(token: try PlaybackRightsToken.parse(s.token), sessionID: "laptop", videoID: nil, renewal: false)
            let failed = try await recorder.waitFor(.fail, from: recorder.count, timeout: .seconds(5))
            #expect(failed.lifecycleEvent?.error?.code == .playbackRightsDenied)
            #expect(failed.lifecycleEvent?.error?.message.contains("streamLimit(renewal)") == true)
            let reached = recorder.events.compactMap { if case .maxConcurrencyReached(_, let sessions) = $0 { sessions } else { nil } }
            #expect(reached.first?.compactMap { $0["sid"]?.stringValue } == ["laptop"])
            // Stopped for good: no more progress, no retry.
            let stoppedAt = recorder.count
            controller.play()
            await controller.settle()
            #expect(!recorder.events[stoppedAt...].contains { if case .retry = $0 { true } else { false } })
            controller.shutdown()
        }
    }
}
