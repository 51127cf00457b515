import Foundation
import Testing

@testable import CoveDASH

let manifestURL = URL(string: "https://cdn.example/vod/title/manifest.mpd")!

func parse(_ text: String, url: URL = manifestURL, limits: DASHParseLimits = DASHParseLimits()) throws(DASHParseError) -> MPD {
    try MPD.parse(Array(text.utf8), url: url, limits: limits)
}

/// A two-representation VOD MPD as ffmpeg's dash muxer writes it (SegmentTemplate + SegmentTimeline).
let timelineMPD = """
    <?xml version="1.0" encoding="utf-8"?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static"
         mediaPresentationDuration="PT9.5S" minBufferTime="PT4.0S">
      <Period id="0" start="PT0.0S">
        <AdaptationSet id="0" contentType="video" segmentAlignment="true" frameRate="25/1">
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
          <SegmentTemplate timescale="12800" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
            <SegmentTimeline>
              <S t="0" d="25600" r="3"/>
              <S d="19200"/>
            </SegmentTimeline>
          </SegmentTemplate>
          <Representation id="0" mimeType="video/mp4" codecs="avc1.64001f" bandwidth="2000000" width="1280" height="720"/>
          <Representation id="1" mimeType="video/mp4" codecs="avc1.64000d" bandwidth="400000" width="426" height="240"/>
        </AdaptationSet>
        <AdaptationSet id="1" contentType="audio" lang="en">
          <SegmentTemplate timescale="48000" initialization="init-$RepresentationID$.m4s" media="a-$RepresentationID$-$Time$.m4s" duration="96000"/>
          <Representation id="a" mimeType="audio/mp4" codecs="mp4a.40.2" bandwidth="128000" audioSamplingRate="48000"/>
        </AdaptationSet>
      </Period>
    </MPD>
    """

@Suite struct MPDParseTests {
    @Test func aTimelineTemplateExpandsToNumberedSegmentsOnThePresentationTimeline() throws {
        let mpd = try parse(timelineMPD)
        #expect(mpd.kind == .static)
        #expect(mpd.mediaPresentationDuration == 9.5)
        let period = try #require(mpd.periods.first)
        #expect(period.duration == 9.5)
        let video = period.adaptationSets[0]
        #expect(video.contentType == .video)
        #expect(video.isMain)
        #expect(video.representations.map(\.bandwidth) == [2_000_000, 400_000])
        #expect(video.representations[0].frameRate == 25)
        let list = try #require(try video.representations[1].segments(in: period, of: mpd))
        #expect(list.initialization?.url.absoluteString == "https://cdn.example/vod/title/init-stream1.m4s")
        #expect(list.segments.count == 5)
        #expect(list.segments.map(\.number) == [1, 2, 3, 4, 5])
        #expect(list.segments.map(\.start) == [0, 2, 4, 6, 8])
        #expect(list.segments.last?.duration == 1.5)
        #expect(list.segments[2].url.absoluteString == "https://cdn.example/vod/title/chunk-stream1-00003.m4s")
    }

    @Test func aDurationTemplateCountsSegmentsOverThePeriodAndFillsTime() throws {
        let mpd = try parse(timelineMPD)
        let period = mpd.periods[0]
        let audio = period.adaptationSets[1]
        #expect(audio.contentType == .audio)
        #expect(audio.language == "en")
        let list = try #require(try audio.representations[0].segments(in: period, of: mpd))
        #expect(list.segments.count == 5, "9.5 s in 2 s segments: the last is partial")
        #expect(list.segments[1].url.lastPathComponent == "a-a-96000.m4s")
        #expect(list.segments.last?.duration == 1.5)
    }

    @Test func segmentInformationIsInheritedAndOverriddenAttributeByAttribute() throws {
        let mpd = try parse(
            """
            <MPD type="static" mediaPresentationDuration="PT4S"><Period>
              <BaseURL>media/</BaseURL>
              <SegmentTemplate timescale="1000" duration="2000" media="$RepresentationID$/$Number$.mp4" initialization="$RepresentationID$/init.mp4"/>
              <AdaptationSet mimeType="video/mp4">
                <Representation id="hd" bandwidth="3000000"><SegmentTemplate startNumber="10"/></Representation>
                <Representation id="sd" bandwidth="800000"><BaseURL>https://other.example/sd/</BaseURL></Representation>
              </AdaptationSet>
            </Period></MPD>
            """)
        let period = mpd.periods[0]
        let hd = try #require(try period.adaptationSets[0].representations[0].segments(in: period, of: mpd))
        #expect(hd.segments.map(\.number) == [10, 11])
        #expect(hd.segments[0].url.absoluteString == "https://cdn.example/vod/title/media/hd/10.mp4")
        let sd = try #require(try period.adaptationSets[0].representations[1].segments(in: period, of: mpd))
        #expect(sd.initialization?.url.absoluteString == "https://other.example/sd/sd/init.mp4")
        #expect(period.adaptationSets[0].contentType == .video, "from the mime type")
    }

    @Test func aSegmentListAndAnIndexedSegmentBase() throws {
        let mpd = try parse(
            """
            <MPD type="static" mediaPresentationDuration="PT6S"><Period><AdaptationSet mimeType="audio/mp4">
              <Representation id="list" bandwidth="64000">
                <SegmentList timescale="10" duration="30">
                  <Initialization sourceURL="init.mp4" range="0-799"/>
                  <SegmentURL media="s1.mp4" mediaRange="800-1999"/><SegmentURL media="s2.mp4"/>
                </SegmentList>
              </Representation>
              <Representation id="base" bandwidth="96000">
                <BaseURL>audio.mp4</BaseURL>
                <SegmentBase indexRange="820-1023"><Initialization range="0-819"/></SegmentBase>
              </Representation>
            </AdaptationSet></Period></MPD>
            """)
        let period = mpd.periods[0]
        let set = period.adaptationSets[0]
        let list = try #require(try set.representations[0].segments(in: period, of: mpd))
        #expect(list.initialization?.range == ByteRange(first: 0, last: 799))
        #expect(list.segments.map(\.start) == [0, 3])
        #expect(list.segments[0].range?.length == 1200)
        guard case .base(let base) = set.representations[1].addressing else { Issue.record("expected SegmentBase"); return }
        #expect(base.indexRange == ByteRange(first: 820, last: 1023))
        #expect(base.initialization?.url.lastPathComponent == "audio.mp4")
        #expect(try set.representations[1].segments(in: period, of: mpd) == nil, "its segments are in the sidx box")
    }

    @Test func periodsWithoutStartFollowTheirPredecessors() throws {
        let mpd = try parse(
            """
            <MPD type="static" mediaPresentationDuration="PT30S">
              <Period id="ad" duration="PT10S"/><Period id="main"/>
            </MPD>
            """)
        #expect(mpd.periods.map(\.start) == [0, 10])
        #expect(mpd.periods.map(\.duration) == [10, 20])
    }

    @Test func contentProtectionNamesTheKeySystem() throws {
        let mpd = try parse(
            """
            <MPD type="static" mediaPresentationDuration="PT4S" xmlns:cenc="urn:mpeg:cenc:2013"><Period><AdaptationSet mimeType="video/mp4">
              <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc" cenc:default_KID="10000000-1000-1000-1000-100000000001"/>
              <ContentProtection schemeIdUri="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"/>
              <SegmentTemplate duration="2" media="$Number$.m4s"/>
              <Representation id="v" bandwidth="1"/>
            </AdaptationSet></Period></MPD>
            """)
        let protections = mpd.periods[0].adaptationSets[0].contentProtections
        #expect(protections.map(\.keySystemName) == ["MPEG Common Encryption (cenc)", "Widevine"])
        #expect(protections[0].defaultKID == "10000000-1000-1000-1000-100000000001")
        #expect(protections.allSatisfy { $0.pssh == nil })
    }

    /// `cenc:pssh` is read as the box's bytes (whitespace in the base64 allowed); base64 that does not
    /// decode is no box at all, and text past 64 KiB is a typed error.
    @Test func contentProtectionCarriesItsPSSH() throws {
        func protection(_ inner: String) throws -> ContentProtection {
            let mpd = try parse(
                """
                <MPD type="static" mediaPresentationDuration="PT4S" xmlns:cenc="urn:mpeg:cenc:2013"><Period><AdaptationSet mimeType="video/mp4">
                  <ContentProtection schemeIdUri="urn:uuid:e2719d58-a985-b3c9-781a-b030af78d30e" value="ClearKey1.0">\(inner)</ContentProtection>
                  <SegmentTemplate duration="2" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/>
                </AdaptationSet></Period></MPD>
                """)
            return mpd.periods[0].adaptationSets[0].contentProtections[0]
        }
        #expect(try protection("<cenc:pssh>AAAAHHBz\n c2gAAAAA</cenc:pssh>").pssh == [0, 0, 0, 0x1c, 0x70, 0x73, 0x73, 0x68, 0, 0, 0, 0])
        #expect(try protection("<cenc:pssh>not base64!</cenc:pssh>").pssh == nil)
        #expect(throws: DASHParseError.self, "text past 64 KiB is refused by the XML guard") {
            try protection("<cenc:pssh>" + String(repeating: "AAAA", count: 20_000) + "</cenc:pssh>")
        }
    }

    @Test func templateIdentifiers() {
        let values = SegmentTemplateFormat.Values(representationID: "v1", number: 42, bandwidth: 500_000, time: 90_000)
        #expect(SegmentTemplateFormat.fill("$RepresentationID$/$Number%06d$-$Time$-$Bandwidth$$$.m4s", values) == "v1/000042-90000-500000$.m4s")
        #expect(SegmentTemplateFormat.fill("$Unknown$", values) == nil)
        #expect(SegmentTemplateFormat.fill("$Number", values) == nil)
        #expect(SegmentTemplateFormat.fill("$Number%x$", values) == nil)
    }

    @Test func durationsAndDates() {
        #expect(DASHValues.duration("PT1H2M3.5S") == 3_723.5)
        #expect(DASHValues.duration("P1DT1S") == 86_401)
        #expect(DASHValues.duration("PT0S") == 0)
        #expect(DASHValues.duration("-PT5S") == nil)
        #expect(DASHValues.duration("PT") == nil)
        #expect(DASHValues.duration("PT1e308S") == nil)
        #expect(DASHValues.duration("P1H") == nil, "hours belong after T")
        #expect(DASHValues.dateTime("1970-01-01T00:00:00Z") == 0)
        #expect(DASHValues.dateTime("2024-02-29T12:00:00.5Z") == 1_709_208_000.5)
        #expect(DASHValues.dateTime("2024-02-29T14:00:00+02:00") == 1_709_208_000)
        #expect(DASHValues.dateTime("2024-13-01T00:00:00Z") == nil)
        #expect(DASHValues.dateTime("yesterday") == nil)
    }
}
