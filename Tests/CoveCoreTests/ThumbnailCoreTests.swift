import CoveCore
import CoveTesting
import Foundation
import Synchronization
import Testing

/// The engine-free parts of thumbnail seeking: image headers and limits, rectangle resolution and
/// cropping, and the controller's switch, offline videos and `ThumbnailAssetFailedToLoad` event (with a
/// scripted thumbnail source).
@Suite("Thumbnail seeking (core)")
struct ThumbnailCoreTests {
    static func png(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return Data(bytes + [8, 6, 0, 0, 0])
    }

    @Test func headersGiveFormatAndSize() {
        #expect(ImageHeader.read(Self.png(width: 640, height: 360)) == ImageHeader(format: .png, width: 640, height: 360))
        // SOI, an APP0 segment, then a baseline frame header (SOF0) for 160 × 90.
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x5A, 0x00, 0xA0, 0x03])
        #expect(ImageHeader.read(jpeg) == ImageHeader(format: .jpeg, width: 160, height: 90))
        for junk in [
            Data(), Data("GIF89a....".utf8), Self.png(width: 0, height: 10), Data([0xFF, 0xD8, 0xFF, 0xDA, 0x00]), Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00]),
        ] {
            #expect(ImageHeader.read(junk) == nil)
        }
        #expect(ImageHeader.read(Self.png(width: 640, height: 360).prefix(20)) == nil)
    }

    @Test func limitsRefuseOversizedAndForeignBodies() throws {
        let limits = ImageLimits(maxBytes: 1000, maxSide: 4096, maxPixels: 1_000_000)
        #expect(try limits.check(Self.png(width: 1000, height: 1000)).width == 1000)
        for (body, kind) in [
            (Self.png(width: 4097, height: 10), ThumbnailError.Kind.imageTooLarge), (Self.png(width: 1001, height: 1000), .imageTooLarge),
            (Self.png(width: .max, height: .max), .imageTooLarge), (Data(count: 1001), .imageTooLarge), (Data("<html>".utf8), .notAnImage),
        ] {
            let error = #expect(throws: ThumbnailError.self) { try limits.check(body) }
            #expect(error?.kind == kind)
        }
        // Without any limit, a pixel count past Int.max is refused rather than overflowing.
        let unlimited = ImageLimits(maxSide: .max, maxPixels: .max)
        let error = #expect(throws: ThumbnailError.self) { try unlimited.check(Self.png(width: .max, height: .max)) }
        #expect(error?.kind == .imageTooLarge)
        #expect(try unlimited.check(Self.png(width: 100_000, height: 100_000)).width == 100_000)
    }

    @Test func rectanglesResolveToPixels() throws {
        #expect(
            try ThumbnailRect(x: 25, y: 50, width: 25, height: 25, unit: .percent).pixels(inWidth: 640, height: 360)
                == ThumbnailRect(x: 160, y: 180, width: 160, height: 90))
        // Rounded down at both edges: adjacent thirds tile 100 px exactly.
        let thirds = try [0, 33, 66].map { try ThumbnailRect(x: $0, y: 0, width: 33, height: 100, unit: .percent).pixels(inWidth: 100, height: 10) }
        #expect(thirds.map(\.x) == [0, 33, 66] && thirds.map(\.width) == [33, 33, 33])
        #expect(
            try ThumbnailRect(x: 600, y: 300, width: 160, height: 90).pixels(inWidth: 640, height: 360) == ThumbnailRect(x: 600, y: 300, width: 40, height: 60))
        let error = #expect(throws: ThumbnailError.self) { try ThumbnailRect(x: 640, y: 0, width: 10, height: 10).pixels(inWidth: 640, height: 360) }
        #expect(error?.kind == .rectOutsideImage && error?.message.contains("640×360") == true)
    }

    @Test func croppingKeepsTheRectanglesPixels() throws {
        // 4 × 2 image whose pixel (x, y) has red = x, green = y.
        let pixels: [UInt8] = (0..<2).flatMap { (y: Int) -> [UInt8] in (0..<4).flatMap { (x: Int) -> [UInt8] in [UInt8(x), UInt8(y), 9, 255] } }
        let image = try #require(RGBAImage(width: 4, height: 2, pixels: pixels))
        let tile = try image.cropped(to: ThumbnailRect(x: 1, y: 1, width: 2, height: 1))
        #expect(tile.width == 2 && tile.height == 1)
        #expect(tile.pixel(x: 0, y: 0) == RGBAImage.Pixel(red: 1, green: 1, blue: 9) && tile.pixel(x: 1, y: 0) == RGBAImage.Pixel(red: 2, green: 1, blue: 9))
        #expect(try image.cropped(to: ThumbnailRect(x: 0, y: 0, width: 100, height: 100, unit: .percent)) == image)
        #expect(RGBAImage(width: 4, height: 2, pixels: [1, 2, 3]) == nil && RGBAImage(width: .max, height: 2, pixels: []) == nil)
        #expect(tile.pixel(x: 2, y: 0) == nil)
    }

    @Test func errorsMapToPlaybackErrorsWithoutSecrets() {
        let error = ThumbnailError(.imageLoadFailed, "The image answered HTTP 404", url: "https://cdn.example/s.jpg?token=s3cr3tvalue", httpStatus: 404)
        #expect(error.playbackError.code == .notFound && error.playbackError.httpStatus == 404)
        #expect(!error.description.contains("s3cr3tvalue") && error.url?.contains("REDACTED") == true)
        #expect(ThumbnailError(.imageCorrupt, "x").playbackError.code == .corruptMedia)
        #expect(LifecycleEvent.thumbnailAssetFailedToLoad(error).name == "ThumbnailAssetFailedToLoad")
        #expect(LifecycleEvent.thumbnailAssetFailedToLoad(error).error?.code == .notFound)
    }

    @Test func videosTakeTheirThumbnailTrackFromTheSetterOrTheCatalog() throws {
        let catalog = Video(
            url: URL(string: "https://media.example/v.m3u8")!,
            properties: [
                "text_tracks": [
                    ["src": "https://media.example/captions.vtt", "kind": "captions"],
                    ["src": "https://media.example/thumbs.vtt", "kind": "metadata", "label": "thumbnails"],
                ]
            ])
        #expect(catalog.thumbnailVTTURL?.absoluteString == "https://media.example/thumbs.vtt")
        let override = catalog.update { $0.thumbnailVTTURL = URL(string: "https://other.example/t.vtt") }
        #expect(override.thumbnailVTTURL?.absoluteString == "https://other.example/t.vtt")
        #expect(!catalog.isOfflinePlayback)
        #expect(catalog.update { $0.properties["offline_video_token"] = "tok" }.isOfflinePlayback)
    }

    // MARK: Controller

    /// A thumbnail source that answers from a script and counts its calls.
    final class ScriptedThumbnails: ThumbnailSource {
        let failure: ThumbnailError?
        let loads = Mutex(0)
        init(failure: ThumbnailError?) { self.failure = failure }

        func loadTrack() async throws(ThumbnailError) {
            loads.withLock { $0 += 1 }
            if let failure { throw failure }
        }

        func thumbnail(at time: MediaTime) async throws(ThumbnailError) -> Thumbnail? {
            try await loadTrack()
            return Thumbnail(
                start: .zero, end: .seconds(5), imageURL: URL(string: "https://cdn.example/s.png")!, rect: ThumbnailRect(x: 0, y: 0, width: 16, height: 9))
        }

        func image(for thumbnail: Thumbnail) async throws(ThumbnailError) -> Data {
            throw ThumbnailError(.imageLoadFailed, "The thumbnail image answered HTTP 404", url: thumbnail.imageURL.absoluteString, httpStatus: 404)
        }
    }

    struct AttachingProvider: PlaybackSessionProvider {
        let source: ScriptedThumbnails
        func prepareSession(for video: Video, context: SessionPreparationContext) async throws(PlaybackError) -> SessionPlan {
            var plan = try await BasicSessionProvider().prepareSession(for: video, context: context)
            plan.thumbnailSource = source
            return plan
        }
    }

    func start(
        _ source: ScriptedThumbnails, enabled: Bool = true, video: Video = ControllerTests.hls
    ) async throws -> (PlaybackController, EventRecorder, PlaybackSession) {
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: ScriptedEngine(), sessionProvider: AttachingProvider(source: source))
        controller.thumbnailSeekingEnabled = enabled
        let recorder = EventRecorder(controller)
        controller.setVideos([video])
        let event = try await recorder.waitFor { if case .sessionAdvanced = $0 { true } else { false } }
        return (controller, recorder, try #require(event.session))
    }

    @Test func aFailingTrackIsReportedOnceWhileScrubbing() async throws {
        let source = ScriptedThumbnails(
            failure: ThumbnailError(.trackLoadFailed, "The thumbnail track answered HTTP 404", url: "https://cdn.example/t.vtt", httpStatus: 404))
        let (controller, recorder, session) = try await start(source)
        let event = try await recorder.waitFor { $0.lifecycleEvent?.kind == .thumbnailAssetFailedToLoad }
        #expect(event.session === session)
        #expect(await session.thumbnail(at: .seconds(1)) == nil)
        #expect(await controller.thumbnail(at: .seconds(2)) == nil)
        await controller.settle()
        #expect(recorder.lifecycleNames.filter { $0 == "ThumbnailAssetFailedToLoad" }.count == 1)
        #expect(source.loads.withLock { $0 } == 3)
        controller.shutdown()
    }

    @Test func aFailingImageIsReportedAndThrown() async throws {
        let (controller, recorder, session) = try await start(ScriptedThumbnails(failure: nil))
        #expect(await session.thumbnail(at: .seconds(1))?.rect == ThumbnailRect(x: 0, y: 0, width: 16, height: 9))
        let error = await #expect(throws: ThumbnailError.self) { try await session.thumbnailImage(at: .seconds(1)) }
        #expect(error?.kind == .imageLoadFailed)
        let event = try await recorder.waitFor { $0.lifecycleEvent?.kind == .thumbnailAssetFailedToLoad }
        guard case .lifecycle(_, .thumbnailAssetFailedToLoad(let reported)) = event else { Issue.record("\(event)"); return }
        #expect(reported == error)
        controller.shutdown()
    }

    @Test func theSwitchOffMeansNoTrackIsLoaded() async throws {
        let source = ScriptedThumbnails(failure: nil)
        let (controller, recorder, session) = try await start(source, enabled: false)
        #expect(!session.isThumbnailSeekingAvailable)
        #expect(await session.thumbnail(at: .seconds(1)) == nil)
        let error = await #expect(throws: ThumbnailError.self) { try await session.thumbnailImage(at: .seconds(1)) }
        #expect(error?.kind == .unavailable)
        await controller.settle()
        #expect(source.loads.withLock { $0 } == 0)
        #expect(!recorder.lifecycleNames.contains("ThumbnailAssetFailedToLoad"))
        controller.shutdown()
    }

    /// Unlike the seed (no thumbnails offline), a downloaded video scrubs with the thumbnail track the offline
    /// manager stored with it: the session treats it like any other.
    @Test func offlineVideosScrubWithTheirStoredThumbnails() async throws {
        let source = ScriptedThumbnails(failure: nil)
        let offline = ControllerTests.hls.update { $0.properties[Video.PropertyKey.offlineVideoToken] = "token-1" }
        let (controller, _, session) = try await start(source, video: offline)
        #expect(session.isThumbnailSeekingAvailable)
        #expect(await session.thumbnail(at: .seconds(1)) != nil)
        await controller.settle()
        #expect(source.loads.withLock { $0 } >= 1, "the stored track is loaded like any other")
        controller.shutdown()
    }
}
