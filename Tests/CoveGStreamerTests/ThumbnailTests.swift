import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveTesting
import CoveText
import Foundation
import Testing

extension RealEngineTests {
    /// Thumbnail seeking end to end: a generated 4×4 sprite sheet (PNG and JPEG) and WebVTT thumbnail
    /// tracks served over HTTP, looked up by time, fetched, decoded and cropped by GStreamer, and the
    /// tiles' pixels checked; broken tracks and images give typed errors and the
    /// `ThumbnailAssetFailedToLoad` event, never a crash.
    @Suite("Thumbnails")
    struct ThumbnailTests {
        let codec = GStreamerImageCodec()

        /// The fixture served at the server root, plus hostile answers under `/hostile/`.
        struct Served {
            let sprites: SpriteSheetFixture
            let server: MediaServer

            func url(_ path: String) -> URL { server.url(path) }
            func stop() async {
                await server.stop()
                sprites.remove()
            }
        }

        func serve() async throws -> Served {
            let sprites = try await SpriteSheetFixture.make()
            let server = try await MediaServer.start(root: sprites.directory)
            let png = try Data(contentsOf: sprites.directory.appendingPathComponent("sprite.png"))
            server.addRoute(prefix: "/hostile/") { request in
                let vtt = { (image: String, rect: String) in
                    MediaServerResponse(
                        status: 200, contentType: "text/vtt", body: Data("WEBVTT\n\n00:00:00.000 --> 00:01:00.000\n\(image)#xywh=\(rect)\n".utf8))
                }
                switch request.path {
                case "/hostile/missing-sprite.vtt": return vtt("gone.png", "0,0,160,90")
                case "/hostile/text-sprite.vtt": return vtt("text.png", "0,0,160,90")
                case "/hostile/truncated-sprite.vtt": return vtt("truncated.png", "0,0,160,90")
                case "/hostile/huge-sprite.vtt": return vtt("huge.png", "0,0,160,90")
                case "/hostile/outside.vtt": return vtt("/sprite.png", "1000,1000,160,90")
                case "/hostile/clipped.vtt": return vtt("/sprite.png", "600,300,160,90")
                case "/hostile/not-vtt.vtt": return MediaServerResponse(status: 200, contentType: "text/vtt", body: Data("<html>nope</html>".utf8))
                case "/hostile/text.png": return MediaServerResponse(status: 200, contentType: "image/png", body: Data("this is not an image at all".utf8))
                case "/hostile/truncated.png": return MediaServerResponse(status: 200, contentType: "image/png", body: png.prefix(png.count / 2))
                case "/hostile/huge.png":
                    // A valid signature and IHDR declaring 100 000 × 100 000 pixels.
                    var header = Data(png.prefix(16))
                    header.append(contentsOf: [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0])
                    header.append(png.dropFirst(24))
                    return MediaServerResponse(status: 200, contentType: "image/png", body: header)
                default: return MediaServerResponse(status: 404, contentType: "text/plain", body: Data("not found".utf8))
                }
            }
            return Served(sprites: sprites, server: server)
        }

        /// Runs `body` with the fixture served, and always stops the server and removes the files.
        func withServed(_ body: (Served) async throws -> Void) async throws {
            let served = try await serve()
            do {
                try await body(served)
            } catch {
                await served.stop()
                throw error
            }
            await served.stop()
        }

        func source(_ served: Served, _ path: String, options: ThumbnailSourceOptions = ThumbnailSourceOptions()) -> WebVTTThumbnailSource {
            WebVTTThumbnailSource(trackURL: served.url(path), transport: AsyncHTTPClientTransport.shared, imageCodec: codec, options: options)
        }

        /// Checks that `png` is one whole tile of colour `tile`, at the centre and 8 px in from each corner.
        func expectTile(_ png: Data, is tile: Int, tolerance: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let image = try codec.decode(png, limits: ImageLimits())
            #expect(ImageHeader.read(png)?.format == .png, sourceLocation: sourceLocation)
            #expect(image.width == SpriteSheetFixture.tileWidth && image.height == SpriteSheetFixture.tileHeight, sourceLocation: sourceLocation)
            let c = SpriteSheetFixture.colour(ofTile: tile)
            let expected = RGBAImage.Pixel(red: c.red, green: c.green, blue: c.blue)
            for (x, y) in [(80, 45), (8, 8), (151, 8), (8, 81), (151, 81)] {
                let pixel = try #require(image.pixel(x: x, y: y), sourceLocation: sourceLocation)
                #expect(pixel.distance(to: expected) <= tolerance, "tile \(tile) at (\(x),\(y)): \(pixel) vs \(expected)", sourceLocation: sourceLocation)
            }
        }

        @Test func returnsTheRightRectangleForEachTime() async throws {
            try await withServed { served in
                let thumbnails = source(served, "thumbs.vtt")
                for (time, tile) in [(0.0, 0), (4.999, 0), (5.0, 1), (12.5, 2), (27.0, 5), (61.0, 12), (79.9, 15)] {
                    let thumbnail = try #require(try await thumbnails.thumbnail(at: .seconds(time)), "no thumbnail at \(time)")
                    let r = SpriteSheetFixture.tileRect(tile)
                    #expect(thumbnail.rect == ThumbnailRect(x: r.x, y: r.y, width: r.width, height: r.height), "at \(time)")
                    #expect(thumbnail.imageURL == served.url("sprite.png"))
                    #expect(thumbnail.start == .seconds(Double(tile) * 5) && thumbnail.end == .seconds(Double(tile + 1) * 5))
                }
                #expect(try await thumbnails.thumbnail(at: .seconds(80)) == nil)
            }
        }

        @Test(arguments: [("thumbs.vtt", 0), ("thumbs-jpg.vtt", 40)])
        func croppedTilesHaveTheTilesPixels(track: String, tolerance: Int) async throws {
            try await withServed { served in
                let thumbnails = source(served, track)
                for tile in [0, 3, 6, 9, 12, 15] {
                    let thumbnail = try #require(try await thumbnails.thumbnail(at: .seconds(Double(tile) * 5 + 2.5)))
                    try expectTile(try await thumbnails.image(for: thumbnail), is: tile, tolerance: tolerance)
                }
                // One download of the sheet served every tile.
                let sheet = track == "thumbs.vtt" ? "/sprite.png" : "/sprite.jpg"
                #expect(served.server.requests.filter { $0.path == sheet }.count == 1)
            }
        }

        @Test func percentRectanglesResolveAgainstTheImageSize() async throws {
            try await withServed { served in
                let thumbnails = source(served, "thumbs-percent.vtt")
                let thumbnail = try #require(try await thumbnails.thumbnail(at: .seconds(32)))
                #expect(thumbnail.rect == ThumbnailRect(x: 50, y: 25, width: 25, height: 25, unit: .percent))
                try expectTile(try await thumbnails.image(for: thumbnail), is: 6, tolerance: 0)
            }
        }

        @Test func theSpriteCacheIsBoundedByDecodedBytes() async throws {
            try await withServed { served in
                // The sheet decodes to 640 × 360 × 4 bytes: over this budget, so it is never kept.
                let thumbnails = source(served, "thumbs.vtt", options: ThumbnailSourceOptions(spriteCacheBytes: 500_000))
                for time in [1.0, 6.0] {
                    let thumbnail = try #require(try await thumbnails.thumbnail(at: .seconds(time)))
                    _ = try await thumbnails.image(for: thumbnail)
                }
                #expect(served.server.requests.filter { $0.path == "/sprite.png" }.count == 2)
                #expect(await thumbnails.cacheUsage.entries == 0)
            }
        }

        @Test func aRectangleReachingPastTheImageIsClippedToIt() async throws {
            try await withServed { served in
                let thumbnails = source(served, "hostile/clipped.vtt")
                let thumbnail = try #require(try await thumbnails.thumbnail(at: .seconds(1)))
                let image = try codec.decode(try await thumbnails.image(for: thumbnail), limits: ImageLimits())
                #expect(image.width == 40 && image.height == 60)
            }
        }

        @Test(arguments: [
            ("hostile/missing-sprite.vtt", ThumbnailError.Kind.imageLoadFailed),
            ("hostile/text-sprite.vtt", .notAnImage),
            ("hostile/truncated-sprite.vtt", .imageCorrupt),
            ("hostile/huge-sprite.vtt", .imageTooLarge),
            ("hostile/outside.vtt", .rectOutsideImage),
        ])
        func brokenImagesGiveTypedErrors(track: String, kind: ThumbnailError.Kind) async throws {
            try await withServed { served in
                let thumbnails = source(served, track)
                let thumbnail = try #require(try await thumbnails.thumbnail(at: .seconds(1)))
                let error = await #expect(throws: ThumbnailError.self) { try await thumbnails.image(for: thumbnail) }
                #expect(error?.kind == kind, "\(String(describing: error))")
                #expect(error?.url?.contains("127.0.0.1") == true)
                #expect((error?.message.count ?? 0) > 30)
                if kind == .imageLoadFailed { #expect(error?.httpStatus == 404 && error?.playbackError.code == .notFound) }
                // The failure is cached: asking again does not fetch again.
                let fetches = served.server.requests.count
                _ = try? await thumbnails.image(for: thumbnail)
                if kind != .rectOutsideImage { #expect(served.server.requests.count == fetches) }
            }
        }

        @Test(arguments: [("hostile/absent.vtt", ThumbnailError.Kind.trackLoadFailed), ("hostile/not-vtt.vtt", .trackInvalid)])
        func brokenTracksGiveTypedErrors(track: String, kind: ThumbnailError.Kind) async throws {
            try await withServed { served in
                let thumbnails = source(served, track)
                let error = await #expect(throws: ThumbnailError.self) { try await thumbnails.thumbnail(at: .seconds(1)) }
                #expect(error?.kind == kind)
            }
        }

        @Test func theCodecRefusesWhatIsNotAnImage() throws {
            for bytes in [Data(), Data("GIF89a".utf8), Data([0x89, 0x50, 0x4E, 0x47]), Data([0xFF, 0xD8, 0xFF, 0xD9])] {
                let error = #expect(throws: ThumbnailError.self) { try codec.decode(bytes, limits: ImageLimits()) }
                #expect(error?.kind == .notAnImage)
            }
            // A JPEG header with nothing after it decodes to an error, not a crash.
            let stub = Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x10, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01])
            let error = #expect(throws: ThumbnailError.self) { try codec.decode(stub, limits: ImageLimits()) }
            #expect(error?.kind == .imageCorrupt)
        }

        // MARK: Through the controller

        func controller(_ served: Served) -> PlaybackController {
            let provider = ThumbnailSeekingProvider(transport: AsyncHTTPClientTransport.shared, imageCodec: codec)
            return PlayerSDKManager.shared.makePlaybackController(engine: ScriptedEngine(), sessionProvider: provider)
        }

        func video(_ served: Served, track: String, offline: Bool = false) -> Video {
            Video(url: served.url("media/master.m3u8"), properties: offline ? ["offline_video_token": "t-1"] : [:]).update {
                $0.thumbnailVTTURL = served.url(track)
            }
        }

        @Test func aSessionServesThumbnailsThroughTheController() async throws {
            try await withServed { served in
                let controller = controller(served)
                let recorder = EventRecorder(controller)
                controller.setVideos([video(served, track: "thumbs.vtt")])
                let event = try await recorder.waitFor { if case .sessionAdvanced = $0 { true } else { false } }
                let session = try #require(event.session)
                #expect(session.isThumbnailSeekingAvailable)
                let thumbnail = try #require(await controller.thumbnail(at: .seconds(12.5)))
                #expect(thumbnail.rect == ThumbnailRect(x: 320, y: 0, width: 160, height: 90))
                try expectTile(try #require(try await session.thumbnailImage(at: .seconds(12.5))), is: 2, tolerance: 0)
                #expect(try await session.thumbnailImage(at: .seconds(90)) == nil)
                await controller.settle()
                #expect(!recorder.lifecycleNames.contains("ThumbnailAssetFailedToLoad"))
                controller.shutdown()
            }
        }

        @Test func aMissingTrackIsReportedOnceAsThumbnailAssetFailedToLoad() async throws {
            try await withServed { served in
                let controller = controller(served)
                let recorder = EventRecorder(controller)
                controller.setVideos([video(served, track: "hostile/absent.vtt")])
                let event = try await recorder.waitFor { $0.lifecycleEvent?.kind == .thumbnailAssetFailedToLoad }
                guard case .lifecycle(_, .thumbnailAssetFailedToLoad(let error)) = event else { Issue.record("\(event)"); return }
                #expect(error.kind == .trackLoadFailed && error.httpStatus == 404)
                #expect(event.lifecycleEvent?.error?.code == .notFound)
                // Scrubbing over the broken track gives nothing and reports nothing more.
                #expect(await controller.thumbnail(at: .seconds(3)) == nil)
                await #expect(throws: ThumbnailError.self) { try await event.session?.thumbnailImage(at: .seconds(3)) }
                await controller.settle()
                #expect(recorder.lifecycleNames.filter { $0 == "ThumbnailAssetFailedToLoad" }.count == 1)
                #expect(!recorder.lifecycleNames.contains("Fail"))
                controller.shutdown()
            }
        }

        @Test func aBrokenSpriteIsReportedOnceAsThumbnailAssetFailedToLoad() async throws {
            try await withServed { served in
                let controller = controller(served)
                let recorder = EventRecorder(controller)
                controller.setVideos([video(served, track: "hostile/missing-sprite.vtt")])
                let event = try await recorder.waitFor { if case .sessionAdvanced = $0 { true } else { false } }
                let session = try #require(event.session)
                for _ in 0..<3 {
                    let error = await #expect(throws: ThumbnailError.self) { try await session.thumbnailImage(at: .seconds(1)) }
                    #expect(error?.kind == .imageLoadFailed)
                }
                await controller.settle()
                #expect(recorder.lifecycleNames.filter { $0 == "ThumbnailAssetFailedToLoad" }.count == 1)
                controller.shutdown()
            }
        }

        @Test func theSwitchTurnsThumbnailsOffAndOfflineVideosKeepTheirs() async throws {
            try await withServed { served in
                let controller = controller(served)
                controller.thumbnailSeekingEnabled = false
                let recorder = EventRecorder(controller)
                controller.setVideos([video(served, track: "thumbs.vtt")])
                let event = try await recorder.waitFor { if case .sessionAdvanced = $0 { true } else { false } }
                let session = try #require(event.session)
                #expect(!session.isThumbnailSeekingAvailable)
                #expect(await controller.thumbnail(at: .seconds(1)) == nil)
                let off = await #expect(throws: ThumbnailError.self) { try await session.thumbnailImage(at: .seconds(1)) }
                #expect(off?.kind == .unavailable && off?.message.contains("thumbnailSeekingEnabled") == true)
                await controller.settle()
                #expect(served.server.requests.isEmpty, "nothing is downloaded while the switch is off")
                // Back on, the same session loads its track on first use.
                controller.thumbnailSeekingEnabled = true
                #expect(await controller.thumbnail(at: .seconds(1)) != nil)

                // A downloaded (offline) video scrubs with the thumbnail track it carries (unlike the seed, where
                // offline videos have none: the offline manager stores the track and points the video at it).
                let offlineRecorder = EventRecorder(controller)
                controller.setVideos([video(served, track: "thumbs-jpg.vtt", offline: true)])
                let offlineEvent = try await offlineRecorder.waitFor { if case .sessionAdvanced = $0 { true } else { false } }
                let offline = try #require(offlineEvent.session)
                #expect(offline.thumbnailSource != nil && offline.isThumbnailSeekingAvailable)
                #expect(await controller.thumbnail(at: .seconds(1)) != nil)
                controller.shutdown()
            }
        }
    }
}
