import CoveCore
import Testing

@testable import CoveGStreamerEngine

/// The engine room's pure values, without GStreamer: how GStreamer's streams are kept and selected.
@Suite("Engine room values")
struct EngineRoomValueTests {
    @Test func gStreamersStreamsAreKeptAndSelectedByKind() {
        var tracks = TrackCollections()
        let video = EngineTrack(id: "v", kind: .video)
        let audio = EngineTrack(id: "a", kind: .audio)
        let text = EngineTrack(id: "t", kind: .text)
        let collected = tracks.collect([video, audio, text])
        let again = tracks.collect([video, audio, text])
        #expect(collected)
        #expect(!again, "the same collection is no change")
        tracks.selectedStreamIDs = ["v", "a"]
        #expect(tracks.streamSelection(audio: "a", text: "t") == ["v", "a", "t"])
        #expect(tracks.streamSelection(audio: "cove-audio-1", text: nil) == ["v"], "a rendition is not one of GStreamer's streams")
        #expect(tracks.firstAudioStreamID == "a")
    }
}
