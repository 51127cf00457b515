import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import Testing

extension RealEngineTests {
    /// The seed's default on the real engine: a catalog video whose Playback-API entry carries a
    /// thumbnails track scrubs with thumbnails on `GStreamerEngine` with no provider and no set-up code.
    @Suite("Thumbnails by default")
    struct DefaultThumbnailPlaybackTests {
        @Test func aCatalogVideoScrubsWithThumbnailsWithoutSetUp() async throws {
            let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
            defer { Task { await server.stop() } }
            let service = PlaybackService(
                accountID: server.accountID, policyKey: server.policyKey, baseURL: server.baseURL, transport: AsyncHTTPClientTransport.shared)
            let video = try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder)).value
            #expect(video.thumbnailVTTURL?.lastPathComponent == "thumbnails.vtt")
            let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine())
            defer { controller.shutdown() }
            let recorder = EventRecorder(controller)
            controller.setVideos([video])
            let event = try await recorder.waitFor { if case .sessionAdvanced = $0 { true } else { false } }
            let session = try #require(event.session)
            #expect(session.isThumbnailSeekingAvailable)
            // 7 s is the second 5 s tile: x = 160 of the 640×90 sprite.
            let thumbnail = try #require(await controller.thumbnail(at: .seconds(7)))
            #expect(
                thumbnail.rect
                    == ThumbnailRect(x: SampleCatalog.thumbnailWidth, y: 0, width: SampleCatalog.thumbnailWidth, height: SampleCatalog.thumbnailHeight))
            let png = try #require(try await session.thumbnailImage(at: .seconds(7)))
            let header = try #require(ImageHeader.read(png))
            #expect(header.format == .png && header.width == SampleCatalog.thumbnailWidth && header.height == SampleCatalog.thumbnailHeight)
            let fetched = server.media.requests.map(\.path)
            #expect(fetched.contains { $0.hasSuffix("/thumbnails.vtt") } && fetched.contains { $0.hasSuffix("/thumbnails.jpg") }, "\(fetched)")
            await controller.settle()
            #expect(!recorder.lifecycleNames.contains("ThumbnailAssetFailedToLoad"))
        }
    }
}
