import CoveCore
import Foundation
import Synchronization

/// One play of a media file (an MP4 rendition, an MP3) over the network: Cove's `ProgressiveLoader`
/// reads it by byte ranges through the app's transport and filters, and a byte-fed player of the base
/// engine demuxes, decodes and renders it.
///
/// The engine starts reading with the first request, so the decoding chain is built while the first bytes
/// are on the wire; the file's length follows from the first answer, before any of its bytes. A refused
/// request (403, a missing file) fails the play before anything was decoded. The controller
/// gets the engine's events plus a transfer for every request and the loader's failure; commands go
/// to the engine, whose seeks come back to the loader as byte offsets.
final class ProgressivePlayer: EnginePlayer, Sendable {
    let events: AsyncStream<EngineEvent>
    private let continuation: AsyncStream<EngineEvent>.Continuation
    private let player: any ByteFedEnginePlayer
    let loader: ProgressiveLoader
    private let state = Mutex(State())

    private struct State {
        var failed = false
        var closed = false
    }

    init(
        configuration: EnginePlayerConfiguration, settings: StreamingConfiguration, engine: StreamingEngine, base: any ByteFeedableMediaEngine
    )
        throws(PlaybackError)
    {
        (events, continuation) = AsyncStream.makeStream(of: EngineEvent.self, bufferingPolicy: .unbounded)
        let player = try base.makeByteFedPlayer(configuration: configuration)
        self.player = player
        let relay = Relay<ProgressiveLoader.Event>()
        loader = ProgressiveLoader(
            url: configuration.url, transport: engine.transport, configuration: settings, output: player.byteInput, tuning: settings.progressive,
            logger: engine.logger,
            onEvent: { event in relay.deliver(event) })
        player.attach(loader)
        relay.connect { [weak self] event in self?.handle(event) }
        let events = player.events
        let continuation = self.continuation
        Task { [weak self] in
            for await event in events {
                guard let self else { break }
                self.forward(event)
            }
            continuation.finish()
        }
    }

    deinit { close() }

    private func forward(_ event: EngineEvent) {
        if case .failed = event {
            // One failure per play: the loader's may have come first.
            let first = state.withLock { s -> Bool in
                defer { s.failed = true }
                return !s.failed
            }
            guard first else { return }
        }
        continuation.yield(event)
    }

    private func handle(_ event: ProgressiveLoader.Event) {
        switch event {
        case .opened(let size):
            player.setFileSize(size)
        case .request(let record):
            continuation.yield(
                .transferCompleted(
                    MediaTransfer(
                        kind: .segment, url: record.url, status: record.status, bytes: record.bytes, startedAt: record.startedAt, duration: record.duration,
                        variantBandwidth: nil, attempt: record.attempt, span: record.span)))
        case .failed(let error):
            let first = state.withLock { s -> Bool in
                defer { s.failed = true }
                return !s.failed && !s.closed
            }
            if first { continuation.yield(.failed(error.playbackError)) }
        }
    }

    // MARK: Commands

    func load(playWhenReady: Bool) {
        player.load(playWhenReady: playWhenReady)
        loader.start()
        player.startReading()
    }

    func play() { player.play() }
    func pause() { player.pause() }
    func seek(to position: MediaTime, tolerance: SeekTolerance, id: Int) { player.seek(to: position, tolerance: tolerance, id: id) }
    func setRate(_ rate: Double) { player.setRate(rate) }
    /// One file: no variants to cap.
    func setMaxBitrate(_ bitsPerSecond: Int?) {}
    func setForwardBufferDuration(_ duration: Duration?) { player.setForwardBufferDuration(duration) }
    func selectTracks(audio: String?, text: String?) { player.selectTracks(audio: audio, text: text) }
    func setVolume(_ volume: AudioVolume) { player.setVolume(volume) }
    func showCaptions(_ cues: [TextCue]) { player.showCaptions(cues) }
    func setShutter(opacity: Double) { player.setShutter(opacity: opacity) }
    func snapshotPNG() throws(PlaybackError) -> Data { try player.snapshotPNG() }

    func close() {
        let first = state.withLock { s -> Bool in
            defer { s.closed = true }
            return !s.closed
        }
        guard first else { return }
        loader.close()
        player.close()
    }

    // MARK: Queries

    var position: MediaTime? { player.position }
    var seekableRanges: [TimeRange] { player.seekableRanges }

    var status: EngineStatus {
        var status = player.status
        status.bytesRead = loader.bytesLoaded
        return status
    }
}
