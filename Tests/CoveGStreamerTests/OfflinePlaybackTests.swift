import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveOffline
import CoveStreaming
import CoveTesting
import CoveText
import Foundation
import Synchronization
import Testing

extension RealEngineTests {
    /// Downloaded copies played by the real engine from the store: no request reaches the network (the
    /// origin server answers every request with an error and the test fails on any), captions and
    /// thumbnails come from the store, seeking works anywhere, and licences and missing files fail typed.
    @Suite("Offline playback from the store")
    struct OfflinePlaybackTests {
        /// A served title, a store, a manager whose clock the test moves.
        struct Setup {
            let fixture: OfflineFixture
            let server: MediaServer
            let root: URL
            let clock: Clock
            let manager: OfflineVideoManager
            let logs = LogCapture()

            final class Clock: Sendable {
                private let offset = Mutex<TimeInterval>(0)
                func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
                func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
            }

            static func start() async throws -> Setup {
                let fixture = try await OfflineFixture.prepare()
                let server = try await MediaServer.start(root: fixture.root)
                let root = FileManager.default.temporaryDirectory.appendingPathComponent("cove-offline-play-\(UUID().uuidString)")
                let clock = Clock()
                let manager = try OfflineVideoManager(
                    root: root, transport: AsyncHTTPClientTransport.shared, configuration: OfflineConfiguration(now: { clock.now() }))
                return Setup(fixture: fixture, server: server, root: root, clock: clock, manager: manager)
            }

            /// Downloads the title and then turns the origin hostile: every request from now on is answered 503
            /// and recorded, so a test can prove none was made.
            func download(_ parameters: OfflineDownloadParameters = OfflineDownloadParameters(audioLanguages: ["en", "fr"])) async throws -> OfflineVideoToken {
                let token = try await manager.requestVideoDownload(fixture.video(on: server.baseURL), parameters: parameters)
                let status = try #require(await manager.waitUntilSettled(token))
                try #require(status.state == .completed, "\(String(describing: status.error))")
                server.forceStatus(503)
                server.clearRequestLog()
                return token
            }

            func controller(fast: Bool) -> PlaybackController {
                let thumbnails = ThumbnailSeekingProvider(transport: AsyncHTTPClientTransport.shared, imageCodec: GStreamerImageCodec())
                let provider = SidecarSubtitlesProvider(upstream: thumbnails, transport: AsyncHTTPClientTransport.shared)
                let configuration = PlaybackControllerConfiguration(
                    progressInterval: .milliseconds(100), videoOutput: .headless, pacing: fast ? .unsynchronized : .realTime, logger: logs.logger(level: .debug)
                )
                return PlayerSDKManager.shared.makePlaybackController(
                    engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer", level: .debug)), sessionProvider: provider,
                    configuration: configuration
                )
            }

            func stop() async {
                await manager.close()
                await server.stop()
                try? FileManager.default.removeItem(at: root)
            }
        }

        /// The whole copy plays from the store with the origin hostile: both audio renditions listed, the
        /// stream's subtitles and the catalog's captions shown at their times (after a seek too), thumbnails
        /// from the stored sprite, to the end — and not one request made.
        @Test func aDownloadedTitlePlaysWithCaptionsThumbnailsAndSeeksWithoutTheNetwork() async throws {
            let s = try await Setup.start()
            defer { Task { await s.stop() } }
            let token = try await s.download()
            let video = try s.manager.videoObject(fromOfflineVideoToken: token)
            #expect(video.isOfflinePlayback && video.sources.first?.url.scheme == "cove-offline")
            #expect(video.properties[OfflineVideoPropertyKey.token] == .string(token.rawValue))
            #expect(video.properties[OfflineVideoPropertyKey.downloadEndTime] != nil && video.properties[OfflineVideoPropertyKey.posterFilePath] != nil)
            let controller = s.controller(fast: false)
            controller.thumbnailSeekingEnabled = true
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([video])
            try await recorder.waitFor(.play)
            let session = try #require(controller.currentSession)
            #expect(Set(session.audioTrackGroup.tracks.compactMap(\.language)) == ["en", "fr"], "\(session.audioTrackGroup.tracks)")
            let languages = session.textTrackGroup.tracks.compactMap(\.language)
            #expect(languages.filter { $0 == "en" }.count == 2, "the stream's subtitles and the catalog's captions: \(session.textTrackGroup.tracks)")
            let stream = try #require(session.textTrackGroup.tracks.first { !$0.id.hasPrefix(SidecarTextTrack.idPrefix) })
            session.selectTextTrack(stream)
            try await recorder.waitFor(timeout: .seconds(10)) { if case .textCuesChanged(_, let c) = $0 { !c.cues.isEmpty } else { false } }
            #expect(await controller.seekAndWait(to: .seconds(14.2), tolerance: .zero))
            try await recorder.waitFor(timeout: .seconds(10)) {
                if case .textCuesChanged(_, let c) = $0 { c.cues.contains { $0.text.hasSuffix("at 14s") } } else { false }
            }
            let thumbnail = try await session.thumbnailImage(at: .seconds(7))
            #expect(try #require(thumbnail).count > 100, "an image from the stored sprite")
            // The catalog's caption track from the store, by position.
            let catalog = try #require(session.textTrackGroup.tracks.first { $0.id.hasPrefix(SidecarTextTrack.idPrefix) })
            session.selectTextTrack(catalog)
            try await recorder.waitFor(timeout: .seconds(10)) {
                if case .textCuesChanged(_, let c) = $0 { c.track.id == catalog.id && c.cues.contains { $0.text.hasPrefix("Caption") } } else { false }
            }
            controller.playbackRate = 4
            try await recorder.waitFor(.end, timeout: .seconds(20))
            controller.shutdown()
            #expect(try #require(recorder.progress.last) >= .seconds(19.5))
            #expect(!recorder.lifecycleNames.contains("Fail"))
            for change in recorder.events.compactMap({ if case .textCuesChanged(_, let c) = $0 { c } else { nil } }) {
                for cue in change.cues {
                    let k = Double(cue.text.split(separator: " ")[1]) ?? -1
                    #expect(change.position.seconds >= 2 * (k - 1) - 0.05 && change.position.seconds < 2 * (k - 1) + 1.95, "\(change)")
                }
            }
            #expect(s.server.requests.isEmpty, "offline playback made requests: \(s.server.requests.map(\.path))")
        }

        /// A rental past its end fails typed — when the video is asked for, and for a copy already handed to
        /// a player (the store checks the licence on every request) — and plays again once renewed.
        @Test func anExpiredDownloadFailsTypedAndPlaysAgainAfterRenewal() async throws {
            let s = try await Setup.start()
            defer { Task { await s.stop() } }
            let token = try await s.download(
                OfflineDownloadParameters(requestedBitrate: 500_000, captionLanguages: [], includesImages: false, license: .rental(seconds: 3_600)))
            let video = try s.manager.videoObject(fromOfflineVideoToken: token)
            #expect(video.properties[OfflineVideoPropertyKey.licenseAbsoluteExpirationTime]?.doubleValue != nil)
            s.clock.advance(7_200)
            let error = #expect(throws: OfflineError.self) { try s.manager.videoObject(fromOfflineVideoToken: token) }
            #expect(error?.code == .expiredLicense && error?.message.contains("renew") == true, "\(String(describing: error))")
            let controller = s.controller(fast: true)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([video])
            let failure = try await recorder.waitFor(.fail, failOn: [])
            let playbackError = try #require(failure.lifecycleEvent?.error)
            #expect(playbackError.code == .offlineLicenseExpired, "\(playbackError)")
            try s.manager.renewLicense(token, terms: .rental(seconds: 3_600))
            let renewed = try s.manager.videoObject(fromOfflineVideoToken: token)
            let cursor = await recorder.cursor()
            controller.setVideos([renewed])
            try await recorder.waitFor(.end, from: cursor)
            controller.shutdown()
            #expect(s.server.requests.isEmpty)
        }

        /// A file removed from a completed copy while a player holds its video: playback stops with the typed
        /// error that says to download again, not a decoder error or a hang.
        @Test func aFileMissingFromTheStoreFailsPlaybackTyped() async throws {
            let s = try await Setup.start()
            defer { Task { await s.stop() } }
            let token = try await s.download(OfflineDownloadParameters(requestedBitrate: 500_000, captionLanguages: [], includesImages: false))
            let video = try s.manager.videoObject(fromOfflineVideoToken: token)
            try FileManager.default.removeItem(at: s.root.appendingPathComponent("downloads/\(token)/video/00003.ts"))
            let controller = s.controller(fast: true)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([video])
            let failure = try await recorder.waitFor(.fail, failOn: [])
            controller.shutdown()
            let error = try #require(failure.lifecycleEvent?.error)
            #expect(error.code == .offlineContentMissing && error.message.contains("video/00003.ts"), "\(error)")
            #expect(s.server.requests.isEmpty)
        }

        /// AES-128 with a key server that wants the app's token: the download fetches the key through the
        /// request filter (refused typed without it), keeps it in the index only — never in a file or a log —
        /// and the copy decrypts and plays offline.
        @Test func anEncryptedTitleDownloadsWithItsKeyAndPlaysOffline() async throws {
            let fixtures = try await FixtureMedia.prepare()
            let server = try await MediaServer.start(root: fixtures.root)
            let key = try Data(contentsOf: fixtures.root.appendingPathComponent("aes/key.bin"))
            let secret = "Bearer offline-key-token-5b1f"
            server.addRoute(prefix: "/aes/key.bin") { request in
                guard request.headers["authorization"] == secret else {
                    return MediaServerResponse(status: 401, contentType: "text/plain", body: Data("token required".utf8))
                }
                return MediaServerResponse(status: 200, contentType: "application/octet-stream", body: key)
            }
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("cove-offline-aes-\(UUID().uuidString)")
            let logs = LogCapture()
            defer {
                Task { await server.stop() }
                try? FileManager.default.removeItem(at: root)
            }
            let video = Video(url: server.url(.aes))
            do {
                let refused = try OfflineVideoManager(
                    root: root, transport: AsyncHTTPClientTransport.shared, logger: logs.logger(label: "cove.offline", level: .trace))
                let token = try await refused.requestVideoDownload(video)
                let status = try #require(await refused.waitUntilSettled(token))
                #expect(
                    status.state == .failed && status.error?.message.contains("401") == true && status.error?.message.contains("request filter") == true,
                    "\(String(describing: status.error))")
                try await refused.deleteOfflineVideo(token)
                await refused.close()
            }
            var configuration = OfflineConfiguration()
            configuration.streaming.requestFilters = [.header("Authorization", secret, kinds: [.key])]
            let manager = try OfflineVideoManager(
                root: root, transport: AsyncHTTPClientTransport.shared, configuration: configuration, logger: logs.logger(label: "cove.offline", level: .trace))
            defer { Task { await manager.close() } }
            let token = try await manager.requestVideoDownload(video)
            #expect(try #require(await manager.waitUntilSettled(token)).state == .completed)
            // The key is in no file of the store but the index, and in no log line.
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let file = enumerator?.nextObject() as? URL {
                guard !file.lastPathComponent.hasPrefix("index.sqlite"), let data = try? Data(contentsOf: file) else { continue }
                #expect(data.range(of: key) == nil, "the key is in \(file.lastPathComponent)")
            }
            #expect(!logs.text.contains(secret.dropFirst(7)) && !logs.text.contains(key.map { String(format: "%02x", $0) }.joined()))
            server.forceStatus(503)
            server.clearRequestLog()
            let configurationPlay = PlaybackControllerConfiguration(
                progressInterval: .milliseconds(100), videoOutput: .headless, pacing: .unsynchronized, logger: logs.logger(level: .debug))
            let controller = PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer", level: .debug)), configuration: configurationPlay)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([try manager.videoObject(fromOfflineVideoToken: token)])
            try await recorder.waitFor(.end)
            controller.shutdown()
            #expect(try #require(recorder.progress.last) >= .seconds(19.5))
            #expect(server.requests.isEmpty)
        }

        /// A video whose only sources are MP4 renditions: the one within the app's bitrate is downloaded
        /// through the app's filters (the CDN refuses requests without its header), kept whole, and played
        /// from the store by byte ranges — seeks included — with the server gone.
        @Test func anMP4OnlyVideoDownloadsItsRenditionAndPlaysOfflineWithSeeks() async throws {
            let fixtures = try await FixtureMedia.prepare()
            let server = try await MediaServer.start(root: fixtures.root)
            let clip = try Data(contentsOf: fixtures.root.appendingPathComponent("clip.mp4"))
            server.addRoute(prefix: "/renditions/") { request in
                guard request.headers["x-cove-app"] == "kiosk-7" else {
                    return MediaServerResponse(status: 403, contentType: "text/plain", body: Data("app header required".utf8))
                }
                return .file(clip, contentType: "video/mp4", range: request.headers["range"])
            }
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("cove-offline-mp4-\(UUID().uuidString)")
            let logs = LogCapture()
            defer {
                Task { await server.stop() }
                try? FileManager.default.removeItem(at: root)
            }
            func rendition(_ name: String, bitrate: Int, height: Int) -> Source {
                Source(
                    url: server.url("renditions/\(name).mp4"),
                    properties: ["type": "video/mp4", "avg_bitrate": .int(Int64(bitrate)), "height": .int(Int64(height)), "size": .int(Int64(clip.count))])
            }
            let video = Video(
                sources: [rendition("high", bitrate: 4_000_000, height: 720), rendition("low", bitrate: 800_000, height: 360)],
                properties: ["name": "MP4 only", "duration": 20_000])
            var configuration = OfflineConfiguration()
            configuration.streaming.requestFilters = [.header("X-Cove-App", "kiosk-7")]
            let manager = try OfflineVideoManager(
                root: root, transport: AsyncHTTPClientTransport.shared, configuration: configuration, logger: logs.logger(label: "cove.offline", level: .debug))
            defer { Task { await manager.close() } }
            let token = try await manager.requestVideoDownload(video, parameters: OfflineDownloadParameters(requestedBitrate: 1_000_000))
            let status = try #require(await manager.waitUntilSettled(token))
            try #require(status.state == .completed, "\(String(describing: status.error))")
            #expect(server.requests.allSatisfy { $0.path == "/renditions/low.mp4" }, "\(server.requests.map(\.path))")
            let offline = try manager.videoObject(fromOfflineVideoToken: token)
            let source = try #require(offline.sources.first)
            #expect(source.isMP4 && source.url.scheme == "cove-offline", "\(source.url)")
            #expect(offline.properties["media_type"]?.stringValue == "mp4")
            server.forceStatus(503)
            server.clearRequestLog()
            let controller = PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer", level: .debug)),
                configuration: PlaybackControllerConfiguration(
                    progressInterval: .milliseconds(100), videoOutput: .headless, pacing: .unsynchronized, logger: logs.logger(level: .debug)))
            let recorder = EventRecorder(controller)
            controller.setVideos([offline])
            try await recorder.waitFor(.ready)
            #expect(await controller.seekAndWait(to: .seconds(12)))
            let mark = await recorder.cursor()
            controller.play()
            let after = try await recorder.waitFor(from: mark) { if case .progress = $0 { true } else { false } }
            if case .progress(_, let position) = after { #expect(position >= .seconds(11.5), "\(position)") }
            try await recorder.waitFor(.end)
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(server.requests.isEmpty, "\(server.requests.map(\.path))")
        }

        /// The DASH fixture served, and `asset` downloaded into a fresh store (its download completed).
        static func downloadedDASH(_ asset: DASHFixture.Asset) async throws -> (DASHFixture, MediaServer, OfflineVideoManager, OfflineVideoToken) {
            let dash = try await DASHFixture.prepare()
            let server = try await MediaServer.start(root: dash.root)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("cove-offline-dash-\(UUID().uuidString)")
            let manager = try OfflineVideoManager(root: root, transport: AsyncHTTPClientTransport.shared)
            let token = try await manager.requestVideoDownload(Video(url: server.url(asset.rawValue), deliveryMethod: .dash))
            let status = try #require(await manager.waitUntilSettled(token))
            try #require(status.state == .completed, "\(String(describing: status.error))")
            return (dash, server, manager, token)
        }

        /// Closes the manager, stops the server and removes the store.
        static func close(_ server: MediaServer, _ manager: OfflineVideoManager) async {
            let root = manager.root
            await manager.close()
            await server.stop()
            try? FileManager.default.removeItem(at: root)
        }

        /// A rate change right after an accurate seek, on DASH with an alternate audio rendition read from the
        /// store: on a loaded 2-core machine the rate seek sometimes never completes (no ASYNC_DONE; the
        /// position query fails from then on; playback never ends). Still seen after streaming moved above the
        /// engine: 1 run in 20 with two busy loops beside it. Its log then shows both inputs repositioned to
        /// the rate seek's generation and their segments pushed, so the stall is past the appsrcs. Issue 33
        /// names this test and owns the fix; a failing run prints the engine's last log lines.
        @Test(.timeLimit(.minutes(1)))
        func aRateChangeRightAfterASeekKeepsPlaying() async throws {
            let (_, server, manager, token) = try await Self.downloadedDASH(.list)
            defer { Task { await Self.close(server, manager) } }
            let logs = LogCapture()
            let configuration = PlaybackControllerConfiguration(
                progressInterval: .milliseconds(100), videoOutput: .headless, pacing: .realTime, logger: logs.logger(level: .debug))
            let controller = PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer", level: .debug)), configuration: configuration)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([try manager.videoObject(fromOfflineVideoToken: token)])
            try await recorder.waitFor(.play)
            #expect(await controller.seekAndWait(to: .seconds(15), tolerance: .zero))
            controller.playbackRate = 2
            do {
                try await recorder.waitFor(.end)
            } catch {
                let lines = logs.text.split(separator: "\n").suffix(80).joined(separator: "\n")
                Issue.record("last log lines:\n\(lines)")
                throw error
            }
            controller.shutdown()
        }

        /// DASH downloads too, in every addressing mode: the copy is HLS over one file per segment (byte
        /// ranges of a SegmentBase or SegmentList file become files of their own), with the audio set as an
        /// alternate rendition and the WebVTT set as a caption track; it plays to the end with no request.
        @Test(arguments: [DASHFixture.Asset.timeline, .base, .list])
        func aDASHTitleDownloadsAndPlaysOffline(_ asset: DASHFixture.Asset) async throws {
            let (dash, server, manager, token) = try await Self.downloadedDASH(asset)
            let logs = LogCapture()
            defer { Task { await Self.close(server, manager) } }
            let files = try manager.storedFiles(of: token)
            #expect(files.contains { $0.path.hasPrefix("audio-0/") } && files.contains { $0.path.hasPrefix("video/init-") })
            // Each stored file is the origin's bytes (the byte range of it, for ranged addressing).
            for file in files {
                let path = URLComponents(string: file.origin)?.path ?? ""
                var expected = try Data(contentsOf: dash.root.appendingPathComponent(String(path.dropFirst())))
                if let range = file.byteRange { expected = expected.subdata(in: range.offset..<(range.offset + range.length)) }
                #expect(try Data(contentsOf: file.localURL) == expected, "\(file.path)")
            }
            server.forceStatus(503)
            server.clearRequestLog()
            let video = try manager.videoObject(fromOfflineVideoToken: token)
            let configuration = PlaybackControllerConfiguration(
                progressInterval: .milliseconds(100), videoOutput: .headless, pacing: .realTime, logger: logs.logger(level: .debug))
            let controller = PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer", level: .debug)), configuration: configuration)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([video])
            try await recorder.waitFor(.play)
            // The rate first, so the seek carries it: a rate change right after an accurate seek can leave this
            // pipeline mid-flush (see `aRateChangeRightAfterASeekKeepsPlaying`).
            controller.playbackRate = 2
            #expect(await controller.seekAndWait(to: .seconds(15), tolerance: .zero))
            try await recorder.waitFor(.end)
            controller.shutdown()
            #expect(try #require(recorder.progress.last) >= .seconds(19.5))
            #expect(!recorder.lifecycleNames.contains("Fail"))
            #expect(server.requests.isEmpty)
        }
    }
}
