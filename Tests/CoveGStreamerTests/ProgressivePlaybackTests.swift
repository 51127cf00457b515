import CoveCore
import CoveGStreamer
import CoveReport
import CoveServer
import CoveStreaming
import CoveTesting
import Foundation
import Synchronization
import Testing

extension RealEngineTests {
    /// Media files through Cove's HTTP: an MP4 is read by byte ranges on the app's transport (its request
    /// filters, the Playback Rights token, retries, accounting) and pushed into playbin3's appsrc; GStreamer's
    /// own HTTP source is never made.
    @Suite("Progressive files through Cove's HTTP")
    struct ProgressivePlaybackTests {
        static let filterHeader = "x-cove-app"
        static let filterValue = "kiosk-7"

        /// A controller whose engine's streaming adds the app's header to every request, and sends the
        /// video's rights token on media requests.
        static func controller(_ h: Harness, fast: Bool = true, byteCache: Int? = nil) -> PlaybackController {
            var streaming = StreamingConfiguration(requestFilters: [.header(filterHeader, filterValue)])
            if let byteCache { streaming.progressive.cacheLimit = byteCache }
            let configuration = PlaybackControllerConfiguration(
                progressInterval: .milliseconds(100), videoOutput: .headless, pacing: fast ? .unsynchronized : .realTime, logger: h.logs.logger(level: .debug),
                rightsTokenRequests: .all)
            let engine = GStreamerEngine(logger: h.logs.logger(label: "cove.gstreamer", level: .debug), streaming: streaming)
            return PlayerSDKManager.shared.makePlaybackController(engine: engine, configuration: configuration)
        }

        /// Serves the fixture's MP4 at /guarded/clip.mp4 only to requests with the app's header and a valid
        /// rights token (403 otherwise), by ranges as a CDN does.
        static func serveGuarded(_ h: Harness, signer: PlaybackRightsSigner) throws {
            let clip = try Data(contentsOf: h.fixtures.root.appendingPathComponent("clip.mp4"))
            h.server.addRoute(prefix: "/guarded/clip.mp4") { request in
                guard request.headers[filterHeader] == filterValue, let token = request.queryItems["bcov_auth"], (try? await signer.verify(token)) != nil
                else {
                    return MediaServerResponse(status: 403, contentType: "text/plain", body: Data("token and app header required".utf8))
                }
                return .file(clip, contentType: "video/mp4", range: request.headers["range"])
            }
        }

        static func video(_ h: Harness, token: String) throws -> Video {
            try Video(url: h.server.url("guarded/clip.mp4")).update { $0.playbackRights = try PlaybackRightsToken.parse(token) }
        }

        /// The CDN refuses the MP4 without the app's header and token: with both it plays, each seek (no
        /// byte cache) is one new ranged request at the sample's offset, and the whole play is read by
        /// ranges — never by GStreamer's HTTP source.
        @Test func aGuardedMP4PlaysAndSeeksWithARangedRequestPerSeek() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let signer = PlaybackRightsSigner(secret: "the-rights-secret-of-the-cdn-0123456789")
            let token = try await signer.token(account: "6000000000001", userID: "viewer-1")
            try Self.serveGuarded(h, signer: signer)
            GStreamerEngine.resetElementsCreated()
            let controller = Self.controller(h, byteCache: 0)
            let recorder = EventRecorder(controller)
            controller.setVideos([try Self.video(h, token: token)])
            try await h.diagnosingFailure { try await recorder.waitFor(.ready) }
            var seekRequests: [Int] = []
            for target in [MediaTime.seconds(15), .seconds(4)] {
                let mark = h.server.requests.count
                #expect(await controller.seekAndWait(to: target))
                let landed = h.server.requests.dropFirst(mark)
                seekRequests.append(landed.count)
                // The first request after the seek starts at the sample's bytes, not the file's start.
                let first = try #require(landed.first, "no request after the seek to \(target)")
                #expect(first.range.map { !$0.hasPrefix("bytes=0-") } == true, "\(first.range ?? "no range")")
            }
            #expect(seekRequests.allSatisfy { $0 >= 1 }, "requests per seek: \(seekRequests)")
            controller.play()
            try await h.diagnosingFailure { try await recorder.waitFor(.end) }
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            let requests = h.server.requests.filter { $0.path == "/guarded/clip.mp4" }
            #expect(requests.count >= 3)
            #expect(requests.allSatisfy { $0.status == 206 && $0.range != nil }, "\(requests.map { "\($0.status) \($0.range ?? "-")" })")
            #expect(requests.allSatisfy { $0.headers[Self.filterHeader] == Self.filterValue && ($0.query ?? "").contains("bcov_auth=") })
            let elements = GStreamerEngine.elementsCreated
            #expect(elements["souphttpsrc"] == nil, "\(elements.keys.sorted())")
            #expect(elements["appsrc", default: 0] >= 1 && elements["qtdemux", default: 0] >= 1, "\(elements.keys.sorted())")
            #expect(!h.logs.text.contains(token), "the token appeared in a log line")
        }

        /// With the default byte cache, once the whole file has been read, seeks back and forth land on
        /// bytes Cove holds: no request is made, and playing goes on from the last seek's target.
        @Test func seeksIntoFetchedBytesAreAnsweredFromMemory() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let signer = PlaybackRightsSigner(secret: "the-rights-secret-of-the-cdn-0123456789")
            let token = try await signer.token(account: "6000000000001", userID: "viewer-1")
            try Self.serveGuarded(h, signer: signer)
            let size = try Data(contentsOf: h.fixtures.root.appendingPathComponent("clip.mp4")).count
            let controller = Self.controller(h, fast: false)
            let recorder = EventRecorder(controller)
            controller.setVideos([try Self.video(h, token: token)])
            try await h.diagnosingFailure { try await recorder.waitFor(.ready) }
            // The read-ahead (8 MiB) takes the whole clip while paused.
            await h.server.waitUntilBytesSent(atLeast: size)
            for target in [MediaTime.seconds(15), .seconds(4), .seconds(18), .seconds(10)] {
                #expect(await controller.seekAndWait(to: target))
            }
            let beforePlay = await recorder.cursor()
            controller.play()
            // Playing goes on from the last seek's target, decoded from the bytes held.
            let landed = try await recorder.waitFor(from: beforePlay) { if case .progress = $0 { true } else { false } }
            guard case .progress(_, let position) = landed else { return }
            #expect(position >= .seconds(9.5) && position < .seconds(12), "\(position)")
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        /// Without the token the CDN answers 403: the play fails typed with the status, before playing.
        @Test func aRefusedMP4FailsTypedWithItsStatus() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let signer = PlaybackRightsSigner(secret: "the-rights-secret-of-the-cdn-0123456789")
            try Self.serveGuarded(h, signer: signer)
            let controller = Self.controller(h)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: h.server.url("guarded/clip.mp4"))])
            let failure = try await recorder.waitFor(.fail, timeout: .seconds(20), failOn: [])
            controller.shutdown()
            let error = try #require(failure.lifecycleEvent?.error)
            #expect(error.httpStatus == 403, "\(error)")
            #expect(error.message.contains("403"), "\(error.message)")
            #expect(!recorder.lifecycleNames.contains("Play") && !recorder.lifecycleNames.contains("Ready"), "\(recorder.lifecycleNames)")
            // A 4xx is final: one request, no retries.
            #expect(h.server.requests.filter { $0.path == "/guarded/clip.mp4" }.count == 1)
        }

        /// Every byte the server sent for an MP4 is counted once: in the transfers the controller reports and
        /// the engine's byte count; and no libsoup element exists anywhere for MP4, HLS or DASH.
        @Test func theBytesOfAnMP4MatchTheServerLog() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            GStreamerEngine.resetElementsCreated()
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            // The QoE report's figures, fed every event as an app (or `cove monitor`) does.
            let recording = Mutex(QoERecording(requestedAt: Date(), paced: false))
            let stream = controller.events
            let consumer = Task { for await event in stream { recording.withLock { $0.handle(event, at: Date()) } } }
            controller.isAutoPlay = true
            controller.setVideos([h.video(.mp4)])
            try await h.diagnosingFailure { try await recorder.waitFor(.end) }
            let status = recorder.events.last?.session?.player?.status
            controller.shutdown()
            await consumer.value
            let qoe = recording.withLock { $0.summary(at: Date()) }
            let sent = h.server.requests.filter { $0.path == "/clip.mp4" }.reduce(0) { $0 + $1.bytesSent }
            let size = try Data(contentsOf: h.fixtures.root.appendingPathComponent("clip.mp4")).count
            #expect(sent >= size, "the server sent \(sent) of \(size) bytes")
            let transferred = recorder.events.compactMap { if case .mediaTransferred(_, let t) = $0 { t.bytes } else { nil } }.reduce(0, +)
            #expect(transferred == sent, "transfers \(transferred), server log \(sent)")
            #expect(status?.bytesRead == sent, "engine \(status?.bytesRead ?? -1), server log \(sent)")
            #expect(qoe.bytesFetched == sent, "QoE report \(qoe.bytesFetched), server log \(sent)")
            #expect(GStreamerEngine.elementsCreated["souphttpsrc"] == nil, "\(GStreamerEngine.elementsCreated.keys.sorted())")
        }

        /// A server that ignores Range answers the first request with the whole file: it still plays.
        @Test func aServerThatIgnoresRangesStillPlays() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let clip = try Data(contentsOf: h.fixtures.root.appendingPathComponent("clip.mp4"))
            h.server.addRoute(prefix: "/plain/clip.mp4") { _ in MediaServerResponse(status: 200, contentType: "video/mp4", body: clip) }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: h.server.url("plain/clip.mp4"))])
            try await h.diagnosingFailure { try await recorder.waitFor(.end) }
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(try #require(recorder.progress.last) >= .seconds(19.5))
        }
    }
}
