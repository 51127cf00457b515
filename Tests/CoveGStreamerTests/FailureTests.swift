import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

/// Bad input and bad networks on the real engine: typed errors, never a crash or a hang.
extension RealEngineTests {
    @Suite("GStreamer failures")
    struct FailureTests {
        @Test func missingMediaFailsWithNotFoundNamingTheRedactedURL() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: h.server.url("nothing/here.m3u8?token=s3cr3t-value&x=1"))])
            let event = try await recorder.waitFor(.fail)
            let error = try #require(event.lifecycleEvent?.error)
            #expect(error.code == .notFound)
            #expect(error.httpStatus == 404)
            #expect(error.url == h.server.url("nothing/here.m3u8?token=REDACTED&x=1").absoluteString)
            #expect(error.message.contains("/nothing/here.m3u8"))
            #expect(!error.description.contains("s3cr3t-value"))
            #expect(!h.logs.text.contains("s3cr3t-value"))
            #expect(!recorder.lifecycleNames.contains("Ready"))
        }

        @Test func unreachableHostFailsWithNetworkUnreachable() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let closedPort = try await Self.unusedPort()
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: URL(string: "http://127.0.0.1:\(closedPort)/x/master.m3u8?auth=abc123456")!)])
            let event = try await recorder.waitFor(.fail)
            let error = try #require(event.lifecycleEvent?.error)
            #expect(error.code == .networkUnreachable)
            #expect(error.url?.contains("127.0.0.1:\(closedPort)/x/master.m3u8?auth=REDACTED") == true)
        }

        @Test func corruptMediaFails() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            for asset in [FixtureMedia.Asset.corruptMP4, .corruptHLS] {
                let controller = h.controller()
                let recorder = EventRecorder(controller)
                controller.isAutoPlay = true
                controller.setVideos([h.video(asset)])
                let event = try await recorder.waitFor(.fail)
                #expect(event.lifecycleEvent?.error?.code == .corruptMedia, "\(asset)")
                controller.shutdown()
            }
        }

        @Test func serverErrorStatusIsTyped() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            h.server.forceStatus(503, forPathsContaining: "master.m3u8")
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            let error = try #require(try await recorder.waitFor(.fail).lifecycleEvent?.error)
            #expect(error.code == .httpStatus)
            #expect(error.httpStatus == 503)
            #expect(error.message.contains("retry later"))
        }

        @Test func aVideoWithoutSourcesNeverReachesTheEngine() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(sources: [], properties: ["id": "nothing"])])
            try await recorder.waitFor(failOn: []) { if case .noPlayableVideosFound = $0 { true } else { false } }
            #expect(recorder.names == ["SessionAdvanced", "Fail", "NoPlayableVideosFound"])
            #expect(h.server.requests.isEmpty)
        }

        @Test func aFragmentDownloadErrorIsNotTheEndOfPlayback() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            // 240p only, downloaded at about twice real time; segments from 6 s on are gone.
            h.server.setBandwidth(bitsPerSecond: 1_200_000)
            h.server.forceStatus(404, forPathsContaining: "/ladder/v0/seg003")
            // Cove's streaming knows the segment's status: a 404 will not come back, so it is not retried.
            let controller = h.controller(fast: false, retry: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(200), jitter: 0))
            let recorder = EventRecorder(controller)
            controller.setPreferredPeakBitRate(600_000)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            let errorEvent = try await recorder.waitFor(.error)
            let errorIndex = recorder.events.firstIndex { $0.lifecycleEvent?.kind == .error }!
            #expect(errorEvent.lifecycleEvent?.error?.code == .downloadFailed)
            #expect(errorEvent.lifecycleEvent?.error?.httpStatus == 404)
            let positionAtError = recorder.progress.last ?? .zero
            // Buffered media keeps playing after the error...
            try await recorder.waitFor(from: errorIndex) {
                if case .progress(_, let t) = $0 { t > positionAtError.advanced(by: .milliseconds(800)) } else { false }
            }
            #expect(!recorder.lifecycleNames.contains("FailedToPlayToEndTime"))
            // ...until it runs out: then playback cannot continue, reported once, never End.
            let failure = try await recorder.waitFor(.failedToPlayToEndTime, timeout: .seconds(20))
            #expect(failure.lifecycleEvent?.error?.code == .failedToPlayToEnd)
            #expect(try #require(recorder.progress.last) < .seconds(7))
            await controller.settle()
            #expect(recorder.events.filter { $0.name == "Retry" }.count == 0)
            #expect(recorder.lifecycleNames.filter { $0 == "FailedToPlayToEndTime" }.count == 1)
            #expect(recorder.lifecycleNames.filter { $0 == "Ready" }.count == 1, "rebuilt pipelines never report Ready again")
            #expect(!recorder.lifecycleNames.contains("End"))
            #expect(!recorder.lifecycleNames.contains("Fail"))
            controller.shutdown()
        }

        @Test func aSlowNetworkStallsAndRecovers() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            // 240p needs ~470 kbit/s; 300 kbit/s cannot keep up.
            h.server.setBandwidth(bitsPerSecond: 300_000)
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.setPreferredPeakBitRate(600_000)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor(.play, timeout: .seconds(20))
            let playIndex = recorder.lifecycleNames.firstIndex(of: "Play")!
            try await recorder.waitFor(.stalled, timeout: .seconds(20))
            h.server.setBandwidth(bitsPerSecond: nil)
            try await recorder.waitFor(.recovered, timeout: .seconds(20))
            let afterPlay = Array(recorder.lifecycleNames.dropFirst(playIndex + 1))
            #expect(Array(afterPlay.prefix(4)) == ["PlaybackBufferEmpty", "PlaybackStalled", "PlaybackLikelyToKeepUp", "PlaybackRecovered"])
            // The load's own buffering is not a stall.
            #expect(recorder.lifecycleNames.firstIndex(of: "PlaybackStalled")! > playIndex)
            controller.shutdown()
        }

        static func unusedPort() async throws -> Int {
            let fixtures = try await FixtureMedia.prepare()
            let server = try await MediaServer.start(root: fixtures.root)
            let port = server.port
            await server.stop()
            return port
        }
    }
}
