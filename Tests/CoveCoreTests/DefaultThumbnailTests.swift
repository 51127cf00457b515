import CoveCore
import CoveTesting
import Foundation
import Synchronization
import Testing

/// Thumbnails on by default, as in the seed: a video that carries a thumbnail track scrubs with
/// thumbnails without a provider in the chain, the source made by the configuration's factory or by an
/// engine that makes them; a provider's own source wins; the switch still turns them off.
@Suite("Thumbnail seeking by default")
struct DefaultThumbnailTests {
    typealias ScriptedThumbnails = ThumbnailCoreTests.ScriptedThumbnails

    /// Makes scripted sources and remembers the tracks it was asked for.
    final class RecordingFactory: ThumbnailSourceFactory {
        let tracks = Mutex<[URL]>([])
        func makeThumbnailSource(trackURL: URL) -> any ThumbnailSource {
            tracks.withLock { $0.append(trackURL) }
            return ScriptedThumbnails(failure: nil)
        }
    }

    /// The scripted engine, plus thumbnail sources of its own (as `GStreamerEngine` makes them).
    struct ThumbnailMakingEngine: MediaEngine, ThumbnailSourceFactory {
        let base = ScriptedEngine()
        let factory = RecordingFactory()
        var name: String { "scripted+thumbnails" }
        func makePlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any EnginePlayer {
            try base.makePlayer(configuration: configuration)
        }
        func makeThumbnailSource(trackURL: URL) -> any ThumbnailSource { factory.makeThumbnailSource(trackURL: trackURL) }
    }

    static let track = URL(string: "https://media.example/a/thumbs.vtt")!
    static let withTrack = ControllerTests.hls.update { $0.thumbnailVTTURL = track }

    func firstSession(_ controller: PlaybackController, _ video: Video) async throws -> PlaybackSession {
        let recorder = EventRecorder(controller)
        controller.setVideos([video])
        let event = try await recorder.waitFor { if case .sessionAdvanced = $0 { true } else { false } }
        return try #require(event.session)
    }

    @Test func theConfiguredFactoryMakesTheSourceWithoutAProvider() async throws {
        let factory = RecordingFactory()
        var configuration = PlaybackControllerConfiguration()
        configuration.thumbnailSourceFactory = factory
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: ScriptedEngine(), configuration: configuration)
        let session = try await firstSession(controller, Self.withTrack)
        #expect(session.isThumbnailSeekingAvailable)
        #expect(await session.thumbnail(at: .seconds(1)) != nil)
        #expect(factory.tracks.withLock { $0 } == [Self.track])
        controller.shutdown()
    }

    @Test func anEngineThatMakesThumbnailsIsTheDefault() async throws {
        let engine = ThumbnailMakingEngine()
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: engine)
        let session = try await firstSession(controller, Self.withTrack)
        #expect(session.isThumbnailSeekingAvailable)
        #expect(engine.factory.tracks.withLock { $0 } == [Self.track])
        // The switch turns them off for the session already playing.
        controller.thumbnailSeekingEnabled = false
        #expect(!session.isThumbnailSeekingAvailable)
        let error = await #expect(throws: ThumbnailError.self) { try await session.thumbnailImage(at: .seconds(1)) }
        #expect(error?.kind == .unavailable)
        controller.shutdown()
    }

    @Test func aVideoWithoutATrackHasNoThumbnailsAndTheErrorSaysWhy() async throws {
        let engine = ThumbnailMakingEngine()
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: engine)
        let session = try await firstSession(controller, ControllerTests.hls)
        #expect(!session.isThumbnailSeekingAvailable)
        let error = await #expect(throws: ThumbnailError.self) { try await session.thumbnailImage(at: .seconds(1)) }
        #expect(error?.kind == .unavailable && error?.message.contains("thumbnailVTTURL") == true)
        #expect(engine.factory.tracks.withLock { $0 }.isEmpty)
        controller.shutdown()
    }

    @Test func aProvidersOwnSourceWinsOverTheEngines() async throws {
        let engine = ThumbnailMakingEngine()
        let attached = ScriptedThumbnails(failure: nil)
        let controller = PlayerSDKManager.shared.makePlaybackController(
            engine: engine, sessionProvider: ThumbnailCoreTests.AttachingProvider(source: attached))
        let session = try await firstSession(controller, Self.withTrack)
        #expect(await session.thumbnail(at: .seconds(1)) != nil)
        #expect(attached.loads.withLock { $0 } >= 1)
        #expect(engine.factory.tracks.withLock { $0 }.isEmpty, "the engine was not asked: the provider attached a source")
        controller.shutdown()
    }
}
