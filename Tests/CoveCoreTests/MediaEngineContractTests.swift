import CoveCore
import CoveTesting
import Foundation
import Testing

/// The engine contract on the scripted engine the controller's unit tests trust (the same contract runs on
/// GStreamer in the real-engine suites), and proof that it catches an engine that breaks it.
@Suite("Media engine contract (scripted engine)")
struct MediaEngineContractTests {
    static let contract = MediaEngineContract(media: URL(string: "https://media.example/contract/master.m3u8")!, pacing: .unsynchronized, timeout: .seconds(5))

    @Test func theScriptedEngineKeepsTheContract() async {
        let violations = await Self.contract.check(ScriptedEngine())
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test func anEngineThatDropsAPauseAfterASeekBreaksIt() async {
        var behavior = ScriptedEngine.Behavior()
        behavior.dropsPauseAfterSeek = true
        let violations = await Self.contract.check(ScriptedEngine(behavior: behavior))
        #expect(violations.map(\.clause) == ["a pause right after a seek holds"], "\(violations)")
        #expect(violations.first?.detail.contains("the pause was lost") == true)
    }

    @Test func anEngineThatPlaysOnLoadBreaksIt() async {
        let violations = await Self.contract.check(PlaysOnLoad())
        #expect(violations.map(\.clause).contains("it prerolls and waits for play()"), "\(violations)")
    }
}

/// An engine that starts playing on `load(playWhenReady: false)`.
private struct PlaysOnLoad: MediaEngine {
    let name = "plays-on-load"
    let inner = ScriptedEngine()

    func makePlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any EnginePlayer {
        let player = try inner.makePlayer(configuration: configuration)
        return Eager(player as! ScriptedPlayer)
    }

    final class Eager: EnginePlayer {
        let inner: ScriptedPlayer
        init(_ inner: ScriptedPlayer) { self.inner = inner }
        var events: AsyncStream<EngineEvent> { inner.events }
        func load(playWhenReady: Bool) { inner.load(playWhenReady: true) }
        func play() { inner.play() }
        func pause() { inner.pause() }
        func seek(to position: MediaTime, tolerance: SeekTolerance, id: Int) { inner.seek(to: position, tolerance: tolerance, id: id) }
        func setRate(_ rate: Double) { inner.setRate(rate) }
        func setMaxBitrate(_ bitsPerSecond: Int?) { inner.setMaxBitrate(bitsPerSecond) }
        func setForwardBufferDuration(_ duration: Duration?) { inner.setForwardBufferDuration(duration) }
        func selectTracks(audio: String?, text: String?) { inner.selectTracks(audio: audio, text: text) }
        func setVolume(_ volume: AudioVolume) { inner.setVolume(volume) }
        var position: MediaTime? { inner.position }
        var seekableRanges: [TimeRange] { inner.seekableRanges }
        var status: EngineStatus { inner.status }
        func snapshotPNG() throws(PlaybackError) -> Data { try inner.snapshotPNG() }
        func close() { inner.close() }
    }
}
