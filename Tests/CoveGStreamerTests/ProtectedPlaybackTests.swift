import CoveCore
import CoveGStreamer
import CoveServer
import CoveStreaming
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// Common Encryption on the real engine: DASH `cenc` and `cbcs` and fMP4 HLS `cbcs` packaged here,
    /// keys from a ClearKey licence server stand-in, decrypted by Cove before GStreamer's demuxer.
    @Suite("Protected content (ClearKey, cenc and cbcs)")
    struct ProtectedPlaybackTests {
        static let licenseToken = "Bearer licence-token-0123456789abcdef"

        /// The protected fixtures served, with a ClearKey licence server that knows both keys.
        struct Served {
            let fixture: ProtectedFixture
            let server: MediaServer
            let license: ClearKeyLicenseServer
            let logs = LogCapture()

            static func start() async throws -> Served {
                let fixture = try await ProtectedFixture.prepare()
                let server = try await MediaServer.start(root: fixture.root)
                let keys = [ProtectedFixture.key, ProtectedFixture.rotationKey].reduce(into: [KeyID: [UInt8]]()) { $0[$1.id] = $1.key }
                return Served(fixture: fixture, server: server, license: ClearKeyLicenseServer(on: server, keys: keys))
            }

            var licenseURL: URL { server.url("license/clearkey") }

            func controller(_ streaming: StreamingConfiguration? = nil, fast: Bool = true) -> PlaybackController {
                var settings = streaming ?? StreamingConfiguration()
                if streaming == nil { settings.decryptionModules = DecryptionModules([ClearKeyModule(licenseURL: licenseURL)]) }
                let configuration = PlaybackControllerConfiguration(
                    progressInterval: .milliseconds(100), videoOutput: .headless, pacing: fast ? .unsynchronized : .realTime,
                    logger: logs.logger(level: .debug))
                let engine = GStreamerEngine(logger: logs.logger(label: "cove.gstreamer", level: .debug), streaming: settings)
                return PlayerSDKManager.shared.makePlaybackController(engine: engine, configuration: configuration)
            }

            func stop() { Task { await server.stop() } }
        }

        /// Each protected asset plays to its end, its frames decoded (a wrong decryption would fail the
        /// decoder or the sample check), with one licence request for video and audio together.
        @Test(arguments: [ProtectedFixture.Asset.dashCENC, .dashCBCS, .hlsCBCS])
        func protectedContentPlaysToTheEnd(_ asset: ProtectedFixture.Asset) async throws {
            let served = try await Served.start()
            defer { served.stop() }
            let controller = served.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: served.server.url(asset.rawValue))])
            try await recorder.waitFor(.end, timeout: .seconds(60))
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(try #require(recorder.progress.last) >= .seconds(Double(served.fixture.duration) - 0.5))
            let licences = served.license.requests
            if asset == .hlsCBCS {
                #expect(licences.isEmpty, "identity-format HLS keys come from the key URI, not a licence server")
                #expect(served.server.requests.contains { $0.path.hasSuffix("key.bin") && $0.status == 200 })
            } else {
                #expect(licences.count == 1, "one licence for the video and the audio: \(licences.count)")
                #expect(licences.first?.keyIDs == [ProtectedFixture.key.id])
                let statuses = recorder.events.compactMap { event -> [KeyID: KeyStatus]? in
                    if case .keyStatusesChanged(_, .clearKey, let statuses) = event { return statuses }
                    return nil
                }
                #expect(statuses.first?[ProtectedFixture.key.id] == .usable, "key statuses reach the app: \(statuses)")
            }
        }
    }
}
