import CoveCore
import CoveGStreamer
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import Synchronization
import Testing

/// Catalog → playback service → controller → GStreamer: the sample catalog, served over loopback,
/// played for real, bumper first.
extension RealEngineTests {
    @Suite("Bumpers and the catalog on the real engine")
    struct BumperPlaybackTests {
        let logs = LogCapture()

        func controller(fast: Bool) -> PlaybackController {
            let configuration = PlaybackControllerConfiguration(
                progressInterval: .milliseconds(100), videoOutput: .headless, pacing: fast ? .unsynchronized : .realTime, logger: logs.logger(level: .debug)
            )
            return PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: logs.logger(label: "cove.gstreamer")), configuration: configuration)
        }

        func service(_ server: CatalogServer) -> PlaybackService {
            PlaybackService(accountID: server.accountID, policyKey: server.policyKey, baseURL: server.baseURL, transport: AsyncHTTPClientTransport.shared)
        }

        @Test func theSamplePlaylistPlaysEndToEndWithTheBumperOnceFirst() async throws {
            let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
            defer { Task { await server.stop() } }
            let found = try await service(server).findPlaylist(
                PlaybackServiceConfiguration(assetReferenceID: SampleCatalog.playlistReferenceID, bumperID: SampleCatalog.VideoID.bumper)
            )
            #expect(found.value.allFailedVideos.count == 1)
            let controller = controller(fast: true)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.isAutoAdvance = true
            controller.setVideos(found.value.allPlayableVideos)
            try await recorder.waitFor(timeout: .seconds(90)) { if case .playlistCompleted = $0 { true } else { false } }
            await controller.settle()

            let advanced = recorder.events.compactMap { if case .sessionAdvanced(let s) = $0 { s.video.id } else { nil } }
            #expect(advanced == [SampleCatalog.VideoID.ladder, SampleCatalog.VideoID.audioOnly, SampleCatalog.VideoID.subtitles])
            let names = recorder.lifecycleNames
            #expect(names.filter { $0 == "BumperEnter" }.count == 1)
            #expect(names.filter { $0 == "BumperExit" }.count == 1)
            #expect(names.filter { $0 == "End" }.count == 3, "the bumper's end is not reported as a content End")
            let enter = try #require(names.firstIndex(of: "BumperEnter"))
            let exit = try #require(names.firstIndex(of: "BumperExit"))
            let play = try #require(names.firstIndex(of: "Play"))
            #expect(enter < exit && exit < play, "\(names)")
            // The bumper really played to its end: both of its 2 s segments were fetched, and its first frame shown.
            let bumperSegments = server.media.requests.filter { $0.path.contains("/media/bumper/") && $0.path.hasSuffix(".ts") }.map {
                ($0.path as NSString).lastPathComponent
            }
            #expect(Set(bumperSegments) == ["seg000.ts", "seg001.ts"], "\(bumperSegments)")
            let frames = recorder.events.compactMap { if case .framePresented(_, let f) = $0 { f.cause } else { nil } }
            #expect(frames.first == .bumper)
            #expect(frames.filter { $0 == .start }.count == 3, "each video's own first frame is reported too")
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            controller.shutdown()
        }

        /// The catalog's DASH video lists a Widevine source first: the clear DASH source is chosen and plays
        /// to the end on Cove's streaming engine.
        @Test func theCatalogsDASHVideoPlaysItsClearSource() async throws {
            let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
            defer { Task { await server.stop() } }
            let found = try await service(server).findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.dash))
            #expect(found.value.sources.count == 2)
            #expect(!(found.value.sources.first?.keySystems.isEmpty ?? true))
            let controller = controller(fast: true)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([found.value])
            try await recorder.waitFor(.end)
            controller.shutdown()
            let session = recorder.events.lazy.compactMap { if case .sessionAdvanced(let s) = $0 { s } else { nil } }.first
            #expect(session?.source?.keySystems.isEmpty == true, "the clear source")
            #expect(session?.source?.isDASH == true)
            #expect(server.media.requests.contains { $0.path.hasSuffix("chunk-stream2-00010.m4s") }, "the audio set played to its last segment")
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        @Test func duringTheBumperSeeksAreRefusedAndPauseResumeAreBumperEvents() async throws {
            let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
            defer { Task { await server.stop() } }
            let found = try await service(server).findVideo(
                PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.audioOnly, bumperReferenceID: "cove-bumper"))
            #expect(found.value.bumper?.id == SampleCatalog.VideoID.bumper)
            let controller = controller(fast: false)
            let recorder = EventRecorder(controller)
            let delegate = BumperCallbacks()
            controller.delegate = delegate
            controller.isAutoPlay = true
            controller.setVideos([found.value])
            try await recorder.waitFor(timeout: .seconds(20)) { if case .lifecycle(_, .bumperProgress(let t)) = $0 { t > .seconds(0.3) } else { false } }
            #expect(await controller.seekAndWait(to: .seconds(10)) == false)
            controller.pause()
            try await recorder.waitFor(.bumperPause)
            let pausedAt = await recorder.cursor()
            controller.play()
            try await recorder.waitFor(.bumperResume, from: pausedAt)
            let exit = try await recorder.waitFor(.bumperExit, timeout: .seconds(20))
            try await recorder.waitFor(.play, timeout: .seconds(20))
            // The content starts at its own beginning, not where the bumper left off.
            let exitIndex = recorder.events.firstIndex { $0.name == exit.name } ?? 0
            let firstContent = try await recorder.waitFor(from: exitIndex) { if case .progress = $0 { true } else { false } }
            guard case .progress(_, let start) = firstContent else { return }
            #expect(start < .seconds(1.5), "\(start)")
            // Now seeking works, in the content.
            let beforeSeek = await recorder.cursor()
            #expect(await controller.seekAndWait(to: .seconds(10)))
            let landed = try await recorder.waitFor(from: beforeSeek) { if case .progress = $0 { true } else { false } }
            guard case .progress(_, let position) = landed else { return }
            #expect(position >= .seconds(9.5) && position < .seconds(12), "\(position)")
            await controller.settle()
            #expect(delegate.calls.first == "enter")
            #expect(delegate.calls.contains("progress"))
            #expect(Array(delegate.calls.filter { $0 != "progress" }) == ["enter", "pause", "resume", "exit"])
            #expect(logs.text.contains("seeking is not allowed while the bumper plays"))
            controller.shutdown()
        }

        @Test func aBumperThatCannotBeFetchedIsSkippedAndTheContentPlays() async throws {
            let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
            defer { Task { await server.stop() } }
            let found = try await service(server).findVideo(
                PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.audioOnly, bumperID: SampleCatalog.VideoID.bumper))
            server.media.forceStatus(503, forPathsContaining: "/media/bumper/")
            let controller = controller(fast: true)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([found.value])
            try await recorder.waitFor(.end, timeout: .seconds(60))
            let names = recorder.lifecycleNames
            let failed = try #require(names.firstIndex(of: "BumperFailedToPlayToEndTime"))
            #expect(failed < names.firstIndex(of: "BumperExit")!)
            #expect(names.firstIndex(of: "BumperExit")! < names.firstIndex(of: "Play")!)
            let error = try #require(recorder.events.compactMap(\.lifecycleEvent).first { $0.kind == .bumperFailedToPlayToEndTime }?.error)
            #expect(error.httpStatus == 503)
            #expect(!names.contains("Fail"))
            controller.shutdown()
        }
    }
}

final class BumperCallbacks: PlaybackControllerDelegate {
    private let state = Mutex<[String]>([])
    var calls: [String] { state.withLock { $0 } }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterBumper bumper: Video) {
        state.withLock { $0.append("enter") }
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitBumper bumper: Video) {
        state.withLock { $0.append("exit") }
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, bumper: Video, didProgressTo progress: MediaTime) {
        state.withLock { if $0.last != "progress" { $0.append("progress") } }
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didPauseBumper bumper: Video) {
        state.withLock { $0.append("pause") }
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didResumeBumper bumper: Video) {
        state.withLock { $0.append("resume") }
    }
}
