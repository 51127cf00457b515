import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import Testing

/// Playback Rights end to end on the real engine: the rights-checking catalog, the Playback Service,
/// the controller and GStreamer.
extension RealEngineTests {
    @Suite("Playback Rights on the real engine", .serialized)
    struct PlaybackRightsPlaybackTests {
        let logs = LogCapture()

        func controller() -> PlaybackController {
            let configuration = PlaybackControllerConfiguration(
                progressInterval: .milliseconds(100), videoOutput: .headless, pacing: .unsynchronized, logger: logs.logger(level: .debug))
            return PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer")), configuration: configuration)
        }

        func service(_ server: CatalogServer) -> PlaybackService {
            PlaybackService(accountID: server.accountID, policyKey: nil, baseURL: server.baseURL, transport: AsyncHTTPClientTransport.shared)
        }

        /// A valid token plays, and its claims reach the session that plays it.
        @Test func aValidTokenPlaysAndItsClaimsReachTheSession() async throws {
            let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
            defer { Task { await server.stop() } }
            let token = try await PlaybackRightsSigner(secret: SampleCatalog.rightsSecret).token(
                account: server.accountID, userID: "viewer-1", concurrencyLimit: 1)
            let found = try await service(server).findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder, authToken: token))
            let controller = controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([found.value])
            try await recorder.waitFor(timeout: .seconds(30)) { if case .progress(_, let t) = $0 { t >= .seconds(1) } else { false } }
            let claims = try #require(controller.currentSession?.playbackRights?.claims)
            #expect(claims.userID == "viewer-1")
            #expect(claims.concurrencyLimit == 1)
            #expect(claims.accountID == server.accountID)
            #expect(server.media.requests.contains { $0.path.hasPrefix("/media/") && $0.path.hasSuffix(".ts") }, "segments were fetched")
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(!logs.text.contains(token), "the token appeared in a log line")
            controller.shutdown()
        }

        /// An expired token is a typed error before any request: neither the catalog nor the media is asked.
        @Test func anExpiredTokenFailsTypedWithNoRequestMade() async throws {
            let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
            defer { Task { await server.stop() } }
            let token = try await PlaybackRightsSigner(secret: SampleCatalog.rightsSecret).token(account: server.accountID, lifetime: -600)
            do {
                _ = try await service(server).findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder, authToken: token))
                Issue.record("an expired token found a video")
            } catch {
                guard case .invalidAuthToken(.expired) = error else {
                    Issue.record("\(error) is not an expired token")
                    return
                }
                #expect(error.description.contains("get a new one"))
            }
            #expect(server.media.requests.isEmpty, "\(server.media.requests.map(\.path))")
        }
    }
}
