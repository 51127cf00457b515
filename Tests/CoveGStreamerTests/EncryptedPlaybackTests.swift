import CoveCore
import CoveGStreamer
import CoveStreaming
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// AES-128 HLS on the real engine with a key server that demands a token: the app's request filter
    /// adds it to key requests; without it the key is refused (typed, the token never printed); a wrong
    /// key is a typed decryption failure, not a decoder error.
    @Suite("AES-128 HLS with key authorization")
    struct EncryptedPlaybackTests {
        static let token = "Bearer cove-key-token-0123456789abcdef"

        /// The key server: the fixture's key with the token, 401 without; `wrongKey` serves other bytes.
        static func start(wrongKey: Bool = false) async throws -> Harness {
            let h = try await Harness.start()
            let key = try Data(contentsOf: h.fixtures.root.appendingPathComponent("aes/key.bin"))
            h.server.addRoute(prefix: "/aes/key.bin") { request in
                guard request.headers["authorization"] == Self.token else {
                    return MediaServerResponse(status: 401, contentType: "text/plain", body: Data("token required".utf8), headers: [:])
                }
                let body = wrongKey ? Data(key.map { $0 ^ 0x5A }) : key
                return MediaServerResponse(status: 200, contentType: "application/octet-stream", body: body, headers: [:])
            }
            return h
        }

        func controller(_ h: Harness, token: String?) -> PlaybackController {
            var streaming = StreamingConfiguration()
            if let token { streaming.requestFilters = [.header("Authorization", token, kinds: [.key])] }
            let configuration = PlaybackControllerConfiguration(
                progressInterval: .milliseconds(100), videoOutput: .headless, pacing: .unsynchronized, logger: h.logs.logger(level: .debug))
            let engine = GStreamerEngine(logger: h.logs.logger(label: "cove.gstreamer", level: .debug), streaming: streaming)
            return PlayerSDKManager.shared.makePlaybackController(engine: engine, configuration: configuration)
        }

        @Test func playsWithTheTokenAddedToKeyRequestsOnly() async throws {
            let h = try await Self.start()
            defer { Task { await h.stop() } }
            let controller = controller(h, token: Self.token)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.aes)])
            try await recorder.waitFor(.end)
            controller.shutdown()
            #expect(try #require(recorder.progress.last) >= .seconds(19.5))
            let keys = h.server.requests.filter { $0.path.hasSuffix("key.bin") }
            #expect(!keys.isEmpty && keys.allSatisfy { $0.status == 200 })
            let others = h.server.requests.filter { !$0.path.hasSuffix("key.bin") }
            #expect(others.allSatisfy { $0.headers["authorization"] == nil }, "the token goes to the key server only")
        }

        /// A video found under a Playback Rights token, with the controller set to send it with key requests:
        /// the key server (which checks the token like the rights service) answers, nothing else gets the
        /// token, and no log line shows it. With the default (catalog only) the same key is refused, typed.
        @Test func thePlaybackRightsTokenGoesToKeyRequestsWhenTheControllerSaysSo() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let signer = PlaybackRightsSigner(secret: "the-rights-secret-of-the-key-server-0123")
            let token = try await signer.token(account: "6000000000001", userID: "viewer-1")
            let key = try Data(contentsOf: h.fixtures.root.appendingPathComponent("aes/key.bin"))
            h.server.addRoute(prefix: "/aes/key.bin") { request in
                guard let presented = request.queryItems["bcov_auth"], (try? await signer.verify(presented)) != nil else {
                    return MediaServerResponse(status: 403, contentType: "text/plain", body: Data("rights token required".utf8), headers: [:])
                }
                return MediaServerResponse(status: 200, contentType: "application/octet-stream", body: key, headers: [:])
            }
            let video = try h.video(.aes).update { $0.playbackRights = try PlaybackRightsToken.parse(token) }
            func play(_ requests: PlaybackRightsMediaRequests) async throws -> EventRecorder {
                let configuration = PlaybackControllerConfiguration(
                    progressInterval: .milliseconds(100), videoOutput: .headless, pacing: .unsynchronized, logger: h.logs.logger(level: .debug),
                    rightsTokenRequests: requests
                )
                let controller = PlayerSDKManager.shared.makePlaybackController(
                    engine: GStreamerEngine(logger: h.logs.logger(label: "cove.gstreamer", level: .debug)), configuration: configuration)
                let recorder = EventRecorder(controller)
                controller.isAutoPlay = true
                controller.setVideos([video])
                _ = try await recorder.waitFor(timeout: .seconds(60), failOn: []) { [.end, .fail].contains($0.lifecycleEvent?.kind) }
                controller.shutdown()
                return recorder
            }
            let withToken = try await play(.keys)
            #expect(withToken.lifecycleNames.contains("End"), "\(withToken.lifecycleNames)")
            let keys = h.server.requests.filter { $0.path.hasSuffix("key.bin") }
            #expect(!keys.isEmpty && keys.allSatisfy { $0.status == 200 })
            #expect(
                h.server.requests.filter { !$0.path.hasSuffix("key.bin") }.allSatisfy { !($0.query ?? "").contains("bcov_auth") },
                "only key requests carry the token")
            #expect(!h.logs.text.contains(token), "the token appeared in a log line")

            h.server.clearRequestLog()
            let withoutToken = try await play(.none)
            let failure = try #require(withoutToken.events.compactMap(\.lifecycleEvent).first { $0.kind == .fail }?.error)
            #expect(failure.code == .keyAuthorizationFailed, "\(failure)")
            #expect(h.server.requests.allSatisfy { !($0.query ?? "").contains("bcov_auth") })
        }

        /// Plays the AES-128 fixture until it fails; the error, what was recorded, and the logs.
        func failure(wrongKey: Bool = false, token: String?) async throws -> (error: PlaybackError, recorder: EventRecorder, logs: String) {
            let h = try await Self.start(wrongKey: wrongKey)
            defer { Task { await h.stop() } }
            let controller = controller(h, token: token)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.aes)])
            let failure = try await recorder.waitFor(.fail, failOn: [])
            controller.shutdown()
            return (try #require(failure.lifecycleEvent?.error), recorder, h.logs.text)
        }

        @Test func withoutTheTokenTheKeyIsRefusedTyped() async throws {
            let (error, recorder, _) = try await failure(token: nil)
            #expect(error.code == .keyAuthorizationFailed, "\(error)")
            #expect(error.httpStatus == 401)
            #expect(!recorder.lifecycleNames.contains("Play"))
        }

        /// SAMPLE-AES with FairPlay's key format (what an Apple-only stream lists) is a key system Cove does not
        /// have: a typed drmUnsupported naming it, before any key or segment is requested.
        @Test func sampleAESIsDRMUnsupportedBeforeAnyRequestForItsMedia() async throws {
            let h = try await Self.start()
            defer { Task { await h.stop() } }
            let media = try String(contentsOf: h.fixtures.root.appendingPathComponent("aes/v0/index.m3u8"), encoding: .utf8)
            let sampleAES = media.replacingOccurrences(
                of: #"METHOD=AES-128,URI="../key.bin""#,
                with: #"METHOD=SAMPLE-AES,URI="skd://cove-key-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#)
            #expect(sampleAES != media, "the fixture's key line changed: the test proves nothing")
            h.server.addRoute(prefix: "/aes/v0/sample-aes.m3u8") { _ in
                MediaServerResponse(status: 200, contentType: "application/vnd.apple.mpegurl", body: Data(sampleAES.utf8), headers: [:])
            }
            let controller = controller(h, token: Self.token)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: h.server.url("aes/v0/sample-aes.m3u8"))])
            let failure = try await recorder.waitFor(.fail, failOn: [])
            controller.shutdown()
            let error = try #require(failure.lifecycleEvent?.error)
            #expect(error.code == .drmUnsupported, "\(error)")
            #expect("\(error)".contains("SAMPLE-AES"), "the error names what is missing: \(error)")
            #expect(!recorder.lifecycleNames.contains("Play"))
            let fetched = h.server.requests.map(\.path).filter { $0.hasSuffix(".ts") || $0.hasSuffix("key.bin") }
            #expect(fetched.isEmpty, "\(fetched)")
        }

        @Test func aWrongKeyIsADecryptionFailureAndTheTokenIsNeverPrinted() async throws {
            let (error, recorder, logs) = try await failure(wrongKey: true, token: Self.token)
            #expect(error.code == .decryptionFailed, "\(error)")
            let printed = logs + recorder.events.map { "\($0)" }.joined() + "\(error)"
            #expect(!printed.contains("cove-key-token"), "the token leaked")
        }
    }
}
