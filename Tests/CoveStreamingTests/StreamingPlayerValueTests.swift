import CoveCore
import Testing

@testable import CoveStreaming

/// The streaming player's pure values, without an engine: when Cove's streaming counts as run dry, and
/// how the engine's streams and the presentation's renditions become the tracks apps see.
@Suite("Streaming player values")
struct StreamingPlayerValueTests {
    @Test func aPlayheadStandingStillAtTheEndOfThePushedMediaRunsDry() {
        var starvation = StreamStarvation()
        let step1 = starvation.playheadIsFrozen(at: 5.0, now: 100.0)
        #expect(!step1, "first sight: not frozen yet")
        let step2 = starvation.playheadIsFrozen(at: 5.0, now: 100.1)
        #expect(!step2, "still for 0.1 s: not yet")
        let step3 = starvation.playheadIsFrozen(at: 5.0, now: 100.25)
        #expect(step3, "still for 0.25 s")
        let step4 = starvation.playheadIsFrozen(at: 5.2, now: 100.3)
        #expect(!step4, "it moved")
        #expect(StreamStarvation.runsDry(ahead: 0.1, frozen: true, overrun: false, ended: false))
        #expect(!StreamStarvation.runsDry(ahead: 0.1, frozen: false, overrun: false, ended: false), "moving: the demuxer's last frames")
        #expect(!StreamStarvation.runsDry(ahead: 0.1, frozen: true, overrun: false, ended: true), "the end is not a stall")
        #expect(!StreamStarvation.runsDry(ahead: 2, frozen: true, overrun: false, ended: false), "a paused playhead with media ahead")
        #expect(StreamStarvation.isRefilled(ahead: 1.0, ended: false) && !StreamStarvation.isRefilled(ahead: 0.9, ended: false))
        #expect(StreamStarvation.isRefilled(ahead: 0, ended: true))
    }

    @Test func oneOfTwoStreamsDryWhileTheOtherPlaysIsAnOverrun() {
        var starvation = StreamStarvation()
        let step5 = starvation.hasOverrun(separateAudio: true, ahead: 0, now: 10)
        #expect(!step5)
        let step6 = starvation.hasOverrun(separateAudio: true, ahead: 0, now: 10.2)
        #expect(!step6)
        let step7 = starvation.hasOverrun(separateAudio: true, ahead: 0, now: 10.3)
        #expect(step7)
        let step8 = starvation.hasOverrun(separateAudio: true, ahead: 0.5, now: 10.4)
        #expect(!step8, "media again: the count starts over")
        let step9 = starvation.hasOverrun(separateAudio: true, ahead: 0, now: 10.5)
        #expect(!step9)
        let step10 = starvation.hasOverrun(separateAudio: false, ahead: 0, now: 20)
        #expect(!step10, "one source: a stall is a frozen playhead")
    }

    @Test func audioRenditionsAndCoveSubtitlesStandForTheEnginesStreams() {
        var tracks = RenditionTracks()
        let video = EngineTrack(id: "v", kind: .video)
        let audio = EngineTrack(id: "a", kind: .audio)
        let text = EngineTrack(id: "t", kind: .text)
        tracks.collect([video, audio, text])
        tracks.selectedStreamIDs = ["v", "a"]
        let renditions = [EngineTrack(id: "cove-audio-0", kind: .audio, language: "en"), EngineTrack(id: "cove-audio-1", kind: .audio, language: "fr")]
        #expect(tracks.publicTracks(audioRenditions: renditions).map(\.id) == ["v", "t", "cove-audio-0", "cove-audio-1"])
        #expect(tracks.publicTracks(audioRenditions: nil).map(\.id) == ["v", "a", "t"])
        #expect(tracks.publicSelection(audioFromRenditions: true, selectedRendition: "cove-audio-1") == ["v", "cove-audio-1"])
        #expect(tracks.firstAudioStreamID == "a")
        let selected = tracks.selectCoveText("cove-text-0")
        #expect(selected.known == false, "no Cove subtitles: the engine's text stream is the one")
    }

    @Test func theDeclaredCodecFillsInWhatTheCapsLeaveOut() {
        let raw = EngineTrack(id: "v", kind: .video, codec: "avc1")
        #expect(RenditionTracks.declaredCodec(raw, declared: ["avc1.42c015", "mp4a.40.2"]).codec == "avc1.42c015")
        let audio = EngineTrack(id: "a", kind: .audio)
        #expect(RenditionTracks.declaredCodec(audio, declared: ["avc1.42c015", "mp4a.40.2"]).codec == "mp4a.40.2")
        let other = EngineTrack(id: "v", kind: .video, codec: "hvc1.1.6.L93")
        #expect(RenditionTracks.declaredCodec(other, declared: ["avc1.42c015"]).codec == "hvc1.1.6.L93", "another family is kept")
    }
}
