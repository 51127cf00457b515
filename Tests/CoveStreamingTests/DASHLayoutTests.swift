import Foundation
import Testing

@testable import CoveDASH
@testable import CoveStreaming

/// The MPD as the streaming engine's presentation: which set is the ladder, which are renditions, what a
/// protected manifest does, where live playback starts, and the sidx step of an indexed SegmentBase.
@Suite("DASH layout")
struct DASHLayoutTests {
    let url = URL(string: "https://cdn.example/title/manifest.mpd")!

    func layout(_ text: String, selection: ManifestSelection = .main) throws -> DASHLayout {
        try DASHLayout(mpd: try MPD.parse(Array(text.utf8), url: url), selection: selection)
    }

    static let ladder = """
        <MPD type="static" mediaPresentationDuration="PT8S"><Period>
          <AdaptationSet contentType="video" mimeType="video/mp4"><SegmentTemplate timescale="1" duration="2" media="v$RepresentationID$-$Number$.m4s" initialization="v$RepresentationID$-init.mp4"/>
            <Representation id="hi" bandwidth="3000000" width="1280" height="720" codecs="avc1.64001f"/>
            <Representation id="lo" bandwidth="400000" width="426" height="240" codecs="avc1.42c015"/>
          </AdaptationSet>
          <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="en"><SegmentTemplate timescale="1" duration="2" media="a-en-$Number$.m4s"/><Representation id="en" bandwidth="64000"/></AdaptationSet>
          <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="fr"><Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/><SegmentTemplate timescale="1" duration="2" media="a-fr-$Number$.m4s"/><Representation id="fr" bandwidth="64000"/></AdaptationSet>
          <AdaptationSet contentType="text" mimeType="text/vtt" lang="de"><Representation id="de" bandwidth="100"><BaseURL>de.vtt</BaseURL></Representation></AdaptationSet>
        </Period></MPD>
        """

    @Test func theVideoSetIsTheLadderAndTheOtherSetsAreRenditions() throws {
        let layout = try layout(Self.ladder)
        let p = layout.presentation
        #expect(p.variants.map(\.bandwidth) == [3_000_000, 400_000])
        #expect(p.variants.map(\.height) == [720, 240])
        #expect(p.indexesByBandwidth == [1, 0])
        #expect(p.audioRenditions.map(\.language) == ["en", "fr"])
        #expect(p.audioRenditions.map(\.isDefault) == [false, true], "Role main wins")
        #expect(p.audioRenditions.map(\.selection) == [.dashAudio(0), .dashAudio(1)])
        #expect(p.textRenditions.map(\.playlistURL?.lastPathComponent) == ["de.vtt"])
        #expect(p.textRenditions.first?.selection == .wholeFile(duration: 8))
        guard case .ready(let timeline) = try layout.timeline(for: 1, now: 0) else { Issue.record("needs no index"); return }
        #expect(timeline.segments.map(\.url.lastPathComponent) == ["vlo-1.m4s", "vlo-2.m4s", "vlo-3.m4s", "vlo-4.m4s"])
        #expect(timeline.segments.first?.initSection?.url.lastPathComponent == "vlo-init.mp4")
        #expect(!timeline.isLive)
    }

    @Test func anAudioRenditionSessionPlaysItsSetsRepresentations() throws {
        let layout = try layout(Self.ladder, selection: .dashAudio(1))
        #expect(layout.presentation.variants.count == 1)
        #expect(layout.presentation.audioRenditions.isEmpty && layout.presentation.textRenditions.isEmpty)
        guard case .ready(let timeline) = try layout.timeline(for: 0, now: 0) else { return }
        #expect(timeline.segments.first?.url.lastPathComponent == "a-fr-1.m4s")
        #expect(throws: StreamingError.self) { try DASHLayout(mpd: layout.mpd, selection: .dashAudio(5)) }
    }

    @Test func aProtectedVideoSetIsSkippedForAClearOneAndAloneIsDRMUnsupported() throws {
        let widevine = "<ContentProtection schemeIdUri=\"urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed\"/>"
        let both = Self.ladder.replacingOccurrences(
            of: "<AdaptationSet contentType=\"video\" mimeType=\"video/mp4\">",
            with:
                "<AdaptationSet contentType=\"video\" mimeType=\"video/mp4\">\(widevine)<SegmentTemplate timescale=\"1\" duration=\"2\" media=\"drm-$Number$.m4s\"/><Representation id=\"drm\" bandwidth=\"9000000\"/></AdaptationSet><AdaptationSet contentType=\"video\" mimeType=\"video/mp4\">"
        )
        #expect(try layout(both).presentation.variants.map(\.bandwidth) == [3_000_000, 400_000], "the clear set")
        let only = Self.ladder.replacingOccurrences(
            of: "<AdaptationSet contentType=\"video\" mimeType=\"video/mp4\">", with: "<AdaptationSet contentType=\"video\" mimeType=\"video/mp4\">\(widevine)")
        do {
            _ = try layout(only)
            Issue.record("a Widevine-only video set must not play")
        } catch let error as StreamingError {
            #expect(error.code == .drmUnsupported)
            #expect(error.message.contains("Widevine"))
            #expect(error.playbackError.code == .drmUnsupported)
        }
    }

    @Test func liveStartsTheSuggestedPresentationDelayBehindTheNewestSegment() throws {
        let live = """
            <MPD type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z" timeShiftBufferDepth="PT20S" suggestedPresentationDelay="PT5S" minimumUpdatePeriod="PT2S">
              <Period start="PT0S"><AdaptationSet contentType="video" mimeType="video/mp4"><SegmentTemplate timescale="1" duration="2" media="$Number$.m4s"/>
              <Representation id="v" bandwidth="1000000"/></AdaptationSet></Period></MPD>
            """
        let layout = try layout(live)
        let start = try #require(DASHValues.dateTime("2026-01-01T00:00:00Z"))
        guard case .ready(let timeline) = try layout.timeline(for: 0, now: start + 100.5) else { return }
        #expect(timeline.isLive)
        #expect(timeline.end == 100, "segments that ended by now")
        #expect(timeline.start == 80, "within the 20 s time-shift buffer")
        #expect(timeline.liveEdge == 95)
        #expect(timeline.segments.last?.sequence == 50)
    }

    @Test func anIndexedSegmentBaseAsksForItsSidxThenPlacesItsSubsegments() throws {
        let text = """
            <MPD type="static" mediaPresentationDuration="PT4S"><Period><AdaptationSet contentType="video" mimeType="video/mp4">
              <Representation id="v" bandwidth="1000000"><BaseURL>v.mp4</BaseURL><SegmentBase indexRange="800-855"><Initialization range="0-799"/></SegmentBase></Representation>
            </AdaptationSet></Period></MPD>
            """
        let layout = try layout(text)
        guard case .needsIndex(let period, let indexURL, let range) = try layout.timeline(for: 0, now: 0) else {
            Issue.record("expected a sidx request"); return
        }
        #expect(period == 0 && indexURL.lastPathComponent == "v.mp4" && range == ByteSpan(offset: 800, length: 56))
        let index = try SegmentIndexBox.parse(Self.sidx(timescale: 1000, sizes: [1000, 1500], duration: 2000), offset: 800)
        guard case .ready(let timeline) = try layout.timeline(for: 0, now: 0, indexes: [0: index]) else { return }
        #expect(
            timeline.segments.map(\.byteRange) == [ByteSpan(offset: 856, length: 1000), ByteSpan(offset: 1856, length: 1500)],
            "placed from the end of the sidx box")
        #expect(timeline.segments.map(\.start) == [0, 2])
        #expect(timeline.segments.first?.initSection?.byteRange == ByteSpan(offset: 0, length: 800))
    }

    @Test func aBrokenSidxIsATypedError() {
        #expect(throws: StreamingError.self) { try SegmentIndexBox.parse(Data([0, 0, 0, 8, 0x6D, 0x6F, 0x6F, 0x66]), offset: 0) }
        var hierarchical = Self.sidx(timescale: 1000, sizes: [1000], duration: 2000)
        hierarchical[32] |= 0x80
        #expect(throws: StreamingError.self) { try SegmentIndexBox.parse(hierarchical, offset: 0) }
        #expect(throws: StreamingError.self) { try SegmentIndexBox.parse(Self.sidx(timescale: 1000, sizes: [1000], duration: 2000).prefix(30), offset: 0) }
    }

    /// A version-0 sidx box: `sizes.count` references of `duration` each, first offset 0.
    static func sidx(timescale: UInt32, sizes: [UInt32], duration: UInt32) -> Data {
        var bytes: [UInt8] = []
        func u32(_ v: UInt32) { bytes += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
        u32(UInt32(32 + 12 * sizes.count))
        bytes += Array("sidx".utf8)
        u32(0)  // version 0, flags
        u32(1)  // reference ID
        u32(timescale)
        u32(0)  // earliest presentation time
        u32(0)  // first offset
        u16(0)
        u16(UInt16(sizes.count))
        for size in sizes {
            u32(size)
            u32(duration)
            u32(0x9000_0000)
        }
        return Data(bytes)
    }
}
