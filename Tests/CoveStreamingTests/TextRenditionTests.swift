import CoveCore
import CoveStreaming
import CoveTesting
import Foundation
import Synchronization
import Testing

/// Subtitle renditions loaded by Cove: the WebVTT segments of an `EXT-X-MEDIA:TYPE=SUBTITLES` playlist
/// near the playhead, their cues placed on the presentation timeline through `X-TIMESTAMP-MAP` and the
/// session's MPEG-TS anchor, each once; failures skip a segment; live playlists are reloaded.
@Suite("Text renditions")
struct TextRenditionTests {
    /// A loader over a fake CDN that records the cues and errors it reports.
    final class TextHarness: Sendable {
        let cdn: FakeCDN
        let batches = Recorded<[TextCue]>()
        let errors = Recorded<StreamingError>()
        let loader: TextRenditionLoader

        init(cdn: FakeCDN, path: String, lookahead: Double = 30, mapper: @escaping TextRenditionLoader.TimestampMapper = { $0 }) throws {
            self.cdn = cdn
            let rendition = AlternateRendition(kind: .text, groupID: "subs", name: "English", language: "en", playlistURL: FakeCDN.url(path))
            let batches = batches
            let errors = errors
            loader = try TextRenditionLoader(
                loader: StreamingLoader(transport: cdn.transport, retry: .none), rendition: rendition, mapper: mapper, lookahead: lookahead,
                onCues: { batches.append($0) }, onError: { errors.append($0) }
            )
        }

        var cues: [TextCue] { batches.all.flatMap { $0 } }
        var texts: [String] { cues.map(\.text) }
        /// Presentation (start, end) of each cue, in seconds, in report order.
        var times: [[Double]] { cues.map { [$0.start.seconds, $0.end.seconds] } }
        var requested: [String] { cdn.requestedPaths }
        /// Segment names requested (the playlist left out), in order.
        var segmentsRequested: [String] { requested.filter { $0.hasSuffix(".vtt") }.map { String($0.split(separator: "/").last ?? "") } }

        /// Waits until the loader has nothing left to fetch in its window and `condition` holds.
        /// The bound is `waitUntil`'s generous one: in `make test`'s unit phase these share two cores with
        /// every other suite (CI at 0fd798f timed out here at 10 s on a wait that takes milliseconds alone).
        func settle(
            _ what: String, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool = { true }
        ) async throws {
            try await waitUntil(what, timeout: timeout, sourceLocation: sourceLocation) { loader.isIdle && condition() }
        }
    }

    static func playlist(_ segments: [(name: String, duration: Double)], target: Int = 10, sequence: Int = 0, ended: Bool = true) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
        if ended { text += "#EXT-X-PLAYLIST-TYPE:VOD\n" }
        for segment in segments { text += "#EXTINF:\(segment.duration),\n\(segment.name)\n" }
        return ended ? text + "#EXT-X-ENDLIST\n" : text
    }

    static func timestamp(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }

    /// A WebVTT segment: an optional `X-TIMESTAMP-MAP` and cues (start, end, text) in its local times.
    static func vtt(map: (mpegts: Int, local: Double)? = nil, _ cues: [(Double, Double, String)]) -> Data {
        var text = "WEBVTT\n"
        if let map { text += "X-TIMESTAMP-MAP=MPEGTS:\(map.mpegts),LOCAL:\(timestamp(map.local))\n" }
        text += "\n"
        for (start, end, line) in cues { text += "\(timestamp(start)) --> \(timestamp(end))\n\(line)\n\n" }
        return Data(text.utf8)
    }

    /// `count` ten-second segments s0.vtt… whose cue "cue N" runs from 10 N + 1 to 10 N + 2 (no map).
    static func vodCDN(root: String, count: Int) -> FakeCDN {
        let cdn = FakeCDN()
        cdn.set("\(root)/subs.m3u8", playlist: playlist((0..<count).map { ("s\($0).vtt", 10) }))
        for n in 0..<count {
            cdn.set("\(root)/s\(n).vtt", contentType: "text/vtt", vtt([(Double(10 * n + 1), Double(10 * n + 2), "cue \(n)")]))
        }
        return cdn
    }

    // MARK: Timing

    /// MPEGTS:900000 is 10 s on the MPEG-TS timeline; the video's PTS started at 4 s, so the mapper
    /// subtracts 4. A cue at local 1 s (LOCAL 0) is at 11 s MPEG-TS, 7 s presentation; the second segment
    /// maps LOCAL 10 s to 20 s MPEG-TS, so its cue at local 12.5 s is at 22.5 s MPEG-TS, 18.5 s presentation.
    @Test func cuesWithATimestampMapLandOnThePresentationTimeline() async throws {
        let cdn = FakeCDN()
        cdn.set("/map/subs.m3u8", playlist: Self.playlist([("a.vtt", 10), ("b.vtt", 10)]))
        cdn.set("/map/a.vtt", contentType: "text/vtt", Self.vtt(map: (900_000, 0), [(1, 2.5, "first"), (4, 5, "<i>second</i>")]))
        cdn.set("/map/b.vtt", contentType: "text/vtt", Self.vtt(map: (1_800_000, 10), [(12.5, 14, "third")]))
        let harness = try TextHarness(cdn: cdn, path: "/map/subs.m3u8", mapper: { $0 - 4 })
        defer { harness.loader.stop() }
        harness.loader.start()
        try await harness.settle("three cues") { harness.cues.count == 3 }
        #expect(harness.texts == ["first", "second", "third"])
        #expect(harness.times == [[7, 8.5], [10, 11], [18.5, 20]])
        #expect(harness.requested == ["/map/subs.m3u8", "/map/a.vtt", "/map/b.vtt"])
        #expect(harness.errors.all.isEmpty)
    }

    /// Without X-TIMESTAMP-MAP the cue times are presentation times as written: the mapper is not asked.
    @Test func cuesWithoutATimestampMapKeepTheirTimes() async throws {
        let cdn = Self.vodCDN(root: "/plain", count: 2)
        let asked = Recorded<Double>()
        let harness = try TextHarness(
            cdn: cdn, path: "/plain/subs.m3u8",
            mapper: {
                asked.append($0); return $0 + 100
            })
        defer { harness.loader.stop() }
        harness.loader.start()
        try await harness.settle("two cues") { harness.cues.count == 2 }
        #expect(harness.times == [[1, 2], [11, 12]])
        #expect(asked.all.isEmpty)
    }

    /// Before the session has pushed a TS segment the mapper answers nil: the cues wait, then arrive once
    /// it answers.
    @Test func cuesWaitForTheMapper() async throws {
        let cdn = FakeCDN()
        cdn.set("/wait/subs.m3u8", playlist: Self.playlist([("a.vtt", 10)]))
        cdn.set("/wait/a.vtt", contentType: "text/vtt", Self.vtt(map: (900_000, 0), [(1, 2, "late")]))
        let known = Mutex(false)
        let harness = try TextHarness(cdn: cdn, path: "/wait/subs.m3u8", mapper: { seconds in known.withLock { $0 } ? seconds - 10 : nil })
        defer { harness.loader.stop() }
        harness.loader.start()
        try await waitUntil("the segment parsed") { harness.loader.unmappedCueCount == 1 }
        #expect(harness.cues.isEmpty)
        known.withLock { $0 = true }
        try await waitUntil("the cue mapped") { harness.cues.count == 1 }
        #expect(harness.times == [[1, 2]])
        #expect(harness.loader.unmappedCueCount == 0)
        #expect(harness.requested == ["/wait/subs.m3u8", "/wait/a.vtt"], "the segment is not fetched again while its cues wait")
    }

    // MARK: Once each

    /// A cue across a segment boundary is in both segments (as packagers write it): reported once. A cue
    /// with the same times but other text is another cue.
    @Test func overlappingSegmentsDoNotDuplicateCues() async throws {
        let cdn = FakeCDN()
        cdn.set("/dup/subs.m3u8", playlist: Self.playlist([("a.vtt", 10), ("b.vtt", 10)]))
        cdn.set("/dup/a.vtt", contentType: "text/vtt", Self.vtt(map: (900_000, 0), [(1, 2, "one"), (9, 11, "across")]))
        cdn.set("/dup/b.vtt", contentType: "text/vtt", Self.vtt(map: (1_800_000, 10), [(9, 11, "across"), (9, 11, "across, other speaker"), (12, 13, "two")]))
        let harness = try TextHarness(cdn: cdn, path: "/dup/subs.m3u8", mapper: { $0 - 10 })
        defer { harness.loader.stop() }
        harness.loader.start()
        try await harness.settle("both segments") { harness.segmentsRequested.count == 2 && harness.cues.count >= 4 }
        #expect(harness.texts.sorted() == ["across", "across, other speaker", "one", "two"])
        #expect(harness.cues.filter { $0.text == "across" }.map { [$0.start.seconds, $0.end.seconds] } == [[9, 11]])
    }

    // MARK: The window

    /// Ten 10-second segments, playhead 0, lookahead 30: only s0…s2 (the window is [−1, 30)). Moving the
    /// playhead to 25 s brings s3…s5 in ([24, 55)); nothing is fetched twice.
    @Test func onlySegmentsNearThePlayheadAreFetched() async throws {
        let harness = try TextHarness(cdn: Self.vodCDN(root: "/window", count: 10), path: "/window/subs.m3u8")
        defer { harness.loader.stop() }
        harness.loader.start()
        try await harness.settle("the first window") { harness.cues.count == 3 }
        #expect(harness.segmentsRequested == ["s0.vtt", "s1.vtt", "s2.vtt"])
        #expect(harness.texts == ["cue 0", "cue 1", "cue 2"])

        harness.loader.update(playhead: 25)
        try await harness.settle("the second window") { harness.cues.count == 6 }
        #expect(harness.segmentsRequested == ["s0.vtt", "s1.vtt", "s2.vtt", "s3.vtt", "s4.vtt", "s5.vtt"])
        #expect(harness.texts == (0...5).map { "cue \($0)" })
        #expect(harness.requested.filter { $0.hasSuffix(".m3u8") }.count == 1, "a VOD playlist is loaded once")
        #expect(harness.cdn.transport.requests.allSatisfy { $0.url.host == "cdn.example.com" })
    }

    /// A seek to 70 s fetches s6…s9 (the window [69, 100)) and none of what lies between.
    @Test func seekFetchesAroundTheTarget() async throws {
        let harness = try TextHarness(cdn: Self.vodCDN(root: "/seek", count: 10), path: "/seek/subs.m3u8")
        defer { harness.loader.stop() }
        harness.loader.start()
        try await harness.settle("the first window") { harness.cues.count == 3 }
        harness.loader.seek(to: 70)
        try await harness.settle("the window at the target") { harness.cues.count == 7 }
        #expect(harness.segmentsRequested == ["s0.vtt", "s1.vtt", "s2.vtt", "s6.vtt", "s7.vtt", "s8.vtt", "s9.vtt"])
        #expect(harness.texts.suffix(4) == ["cue 6", "cue 7", "cue 8", "cue 9"])
        // Back to the start: everything there was loaded already.
        harness.loader.seek(to: 0)
        try await harness.settle("the first window again")
        #expect(harness.segmentsRequested.count == 7)
        #expect(harness.cues.count == 7)
    }

    /// A seek before start only moves where the loader starts.
    @Test func aSeekBeforeStartSetsWhereLoadingBegins() async throws {
        let harness = try TextHarness(cdn: Self.vodCDN(root: "/early", count: 10), path: "/early/subs.m3u8", lookahead: 10)
        defer { harness.loader.stop() }
        harness.loader.seek(to: 50)
        #expect(harness.requested.isEmpty)
        harness.loader.start()
        try await harness.settle("the window at 50 s") { harness.cues.count == 2 }
        #expect(harness.segmentsRequested == ["s4.vtt", "s5.vtt"])
    }

    // MARK: Failures

    /// s1 answers 404 and s2 an HTML error page: each is reported once and skipped; s3's cues still
    /// arrive, and a later playhead update does not fetch the failed ones again.
    @Test func aFailedSegmentIsReportedOnceAndSkipped() async throws {
        let cdn = Self.vodCDN(root: "/fail", count: 4)
        cdn.fail("/fail/s1.vtt", status: 404)
        cdn.set("/fail/s2.vtt", contentType: "text/html", Data("<!DOCTYPE html><html><body>Sign in to the Wi-Fi</body></html>".utf8))
        let harness = try TextHarness(cdn: cdn, path: "/fail/subs.m3u8", lookahead: 40)
        defer { harness.loader.stop() }
        harness.loader.start()
        try await harness.settle("the cues around the failures") { harness.cues.count == 2 }
        #expect(harness.texts == ["cue 0", "cue 3"])
        #expect(harness.errors.all.map(\.code) == [.httpStatus, .notMedia])
        #expect(harness.errors.all.first?.httpStatus == 404)
        #expect(harness.errors.all.last?.message.contains("HTML") == true)

        harness.loader.update(playhead: 5)
        try await harness.settle("the same window")
        #expect(harness.segmentsRequested == ["s0.vtt", "s1.vtt", "s2.vtt", "s3.vtt"])
        #expect(harness.errors.all.count == 2)
    }

    /// A subtitle playlist that cannot be loaded is reported (once) and nothing else happens.
    @Test func aMissingPlaylistIsReported() async throws {
        let harness = try TextHarness(cdn: FakeCDN(), path: "/none/subs.m3u8")
        defer { harness.loader.stop() }
        harness.loader.start()
        try await waitUntil("the error") { !harness.errors.all.isEmpty }
        #expect(harness.errors.all.map(\.httpStatus) == [404])
        #expect(harness.cues.isEmpty)
    }

    @Test func aRenditionWithoutAPlaylistIsRefused() {
        let rendition = AlternateRendition(kind: .text, groupID: "subs", name: "CC", playlistURL: nil)
        let error = StreamingError.caught { () throws(StreamingError) in
            try TextRenditionLoader(loader: StreamingLoader(transport: FakeCDN().transport), rendition: rendition, mapper: { $0 }, onCues: { _ in })
        }
        #expect(error?.code == .unsupportedFeature)
    }

    // MARK: Live

    /// One-second segments, no ENDLIST: the playlist is reloaded every target duration and the cues of
    /// the segments it gains arrive, on the same timeline.
    @Test func aLiveSubtitlePlaylistIsReloaded() async throws {
        let cdn = FakeCDN()
        for n in 0...5 { cdn.set("/live/s\(n).vtt", contentType: "text/vtt", Self.vtt([(Double(n) + 0.25, Double(n) + 0.75, "live \(n)")])) }
        cdn.set("/live/subs.m3u8", playlist: Self.playlist((0...2).map { ("s\($0).vtt", 1) }, target: 1, ended: false))
        let harness = try TextHarness(cdn: cdn, path: "/live/subs.m3u8")
        defer { harness.loader.stop() }
        harness.loader.start()
        try await waitUntil("the first window's cues") { harness.cues.count == 3 }
        #expect(harness.loader.timeline?.isLive == true)

        cdn.set("/live/subs.m3u8", playlist: Self.playlist((1...5).map { ("s\($0).vtt", 1) }, target: 1, sequence: 1, ended: false))
        try await waitUntil("the appended segments' cues", timeout: .seconds(3)) { harness.cues.count == 6 }
        #expect(harness.texts == (0...5).map { "live \($0)" })
        #expect(harness.times.map(\.first) == [0.25, 1.25, 2.25, 3.25, 4.25, 5.25])
        #expect(harness.segmentsRequested == (0...5).map { "s\($0).vtt" }, "each segment once, across reloads")
        #expect(harness.loader.timeline?.segments.map(\.start) == [1, 2, 3, 4, 5], "the window slid without moving its times")
        #expect(harness.requested.filter { $0.hasSuffix(".m3u8") }.count >= 2)
        #expect(harness.errors.all.isEmpty)
    }

    /// After stop() nothing is requested: not the live reloads, not the segments the playlist gains.
    /// (The one bounded watch in this suite: the absence of a request has no event to wait for.)
    @Test func stopCancelsEverything() async throws {
        let cdn = FakeCDN()
        for n in 0...5 { cdn.set("/stop/s\(n).vtt", contentType: "text/vtt", Self.vtt([(Double(n), Double(n) + 0.5, "line \(n)")])) }
        cdn.set("/stop/subs.m3u8", playlist: Self.playlist((0...1).map { ("s\($0).vtt", 1) }, target: 1, ended: false))
        let harness = try TextHarness(cdn: cdn, path: "/stop/subs.m3u8")
        harness.loader.start()
        try await waitUntil("the first cues") { harness.cues.count == 2 }
        // A reload is seen first, so the loop is known to be reloading when it stops.
        let reloads = harness.requested.count
        try await waitUntil("a reload", timeout: .seconds(3)) { harness.requested.count > reloads }
        harness.loader.stop()
        let requests = harness.requested.count
        cdn.set("/stop/subs.m3u8", playlist: Self.playlist((0...5).map { ("s\($0).vtt", 1) }, target: 1, ended: false))
        harness.loader.update(playhead: 3)
        try await Task.sleep(for: .milliseconds(2_500))
        #expect(harness.requested.count == requests, "requested after stop: \(harness.requested.dropFirst(requests))")
        #expect(harness.cues.count == 2)
    }

    // MARK: The session's MPEG-TS anchor

    /// One 188-byte TS packet: an adaptation field with `pcr`, and the start of a video PES carrying `pts`
    /// (the layout `MPEGTSTiming.read` reads).
    static func tsPacket(pts: UInt64, pcr: UInt64) -> Data {
        var packet = [UInt8](repeating: 0xFF, count: 188)
        packet[0] = 0x47
        packet[1] = 0x40 | 0x01  // payload unit start, PID 0x100
        packet[2] = 0x00
        packet[3] = 0x30  // adaptation field and payload, continuity 0
        packet[4] = 7  // adaptation field length
        packet[5] = 0x10  // PCR flag
        packet[6] = UInt8(truncatingIfNeeded: pcr >> 25)
        packet[7] = UInt8(truncatingIfNeeded: pcr >> 17)
        packet[8] = UInt8(truncatingIfNeeded: pcr >> 9)
        packet[9] = UInt8(truncatingIfNeeded: pcr >> 1)
        packet[10] = UInt8(truncatingIfNeeded: (pcr & 1) << 7) | 0x7E  // reserved bits, extension high bit 0
        packet[11] = 0
        let pes: [UInt8] = [
            0x00, 0x00, 0x01, 0xE0,  // start code, video stream 0
            0x00, 0x00,  // unbounded length
            0x80, 0x80, 0x05,  // marker bits, PTS only, header length 5
            UInt8(truncatingIfNeeded: 0x21 | ((pts >> 29) & 0x0E)),
            UInt8(truncatingIfNeeded: pts >> 22),
            UInt8(truncatingIfNeeded: 0x01 | ((pts >> 14) & 0xFE)),
            UInt8(truncatingIfNeeded: pts >> 7),
            UInt8(truncatingIfNeeded: 0x01 | ((pts << 1) & 0xFE)),
        ]
        packet.replaceSubrange(12..<(12 + pes.count), with: pes)
        return Data(packet)
    }

    @Test func theTestPacketCarriesItsTimestamps() {
        let pts: UInt64 = (1 << 33) - 45_000
        let timing = MPEGTSTiming.read(Self.tsPacket(pts: pts, pcr: pts - 63_000))
        #expect(timing.earliestPTS == pts)
        #expect(timing.firstPCR == pts - 63_000)
        #expect(abs(timing.pcrToPTSDelay - 0.7) < 1e-9)
    }

    /// Period one: PTS 10 s at presentation 0, so MPEG-TS 12.5 s is 2.5 s. Period two (after a
    /// discontinuity, at presentation 4 s) starts 0.5 s before the 33-bit wrap: MPEG-TS 0.25 s (after
    /// the wrap) is 0.75 s into it, 4.75 s.
    @Test func mpegtsToPresentationUsesTheFirstTSSegmentOfEachDiscontinuity() async throws {
        let cdn = FakeCDN()
        let wrapTicks: UInt64 = 1 << 33
        cdn.set(
            "/anchor/index.m3u8",
            playlist: """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:2
                #EXT-X-MEDIA-SEQUENCE:0
                #EXTINF:2.0,
                a0.ts
                #EXTINF:2.0,
                a1.ts
                #EXT-X-DISCONTINUITY
                #EXTINF:2.0,
                b0.ts
                #EXT-X-ENDLIST

                """)
        cdn.set("/anchor/a0.ts", contentType: "video/mp2t", Self.tsPacket(pts: 900_000, pcr: 837_000))
        // Not the first of its discontinuity: its (inconsistent) PTS must not move the anchor.
        cdn.set("/anchor/a1.ts", contentType: "video/mp2t", Self.tsPacket(pts: 9_000_000, pcr: 8_937_000))
        cdn.set("/anchor/b0.ts", contentType: "video/mp2t", Self.tsPacket(pts: wrapTicks - 45_000, pcr: wrapTicks - 108_000))
        let harness = Harness(cdn: cdn, url: FakeCDN.url("/anchor/index.m3u8"))
        defer { harness.session.close() }
        #expect(harness.session.mpegtsToPresentation(10) == nil, "nothing pushed yet")
        harness.output.setPlayhead(0)
        harness.session.start(at: 0)
        try await waitUntil("the first segment") { harness.output.media.count >= 1 }
        let first = try #require(harness.session.mpegtsToPresentation(12.5))
        #expect(abs(first - 2.5) < 1e-9)
        try await waitUntil("the end") { !harness.output.endOfStream.isEmpty }
        #expect(harness.output.media.map(\.start) == [0, 2, 4])
        let again = try #require(harness.session.mpegtsToPresentation(12.5))
        #expect(abs(again - 2.5) < 1e-9, "the anchor of discontinuity 0 is its first segment's")
        let afterWrap = try #require(harness.session.mpegtsToPresentation(0.25))
        #expect(abs(afterWrap - 4.75) < 1e-9)
        let beforeWrap = try #require(harness.session.mpegtsToPresentation(Double(wrapTicks - 9_000) / 90_000))
        #expect(abs(beforeWrap - 4.4) < 1e-6)
        #expect(harness.session.mpegtsToPresentation(.nan) == nil)
    }

    /// The loader and the session together: the cue's X-TIMESTAMP-MAP is the video's first PTS (10 s),
    /// so a cue at local 3 s lands 3 s into the presentation.
    @Test func aLoaderMapsThroughTheSession() async throws {
        let cdn = FakeCDN()
        cdn.set("/both/index.m3u8", playlist: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nv0.ts\n#EXTINF:2.0,\nv1.ts\n#EXT-X-ENDLIST\n")
        cdn.set("/both/v0.ts", contentType: "video/mp2t", Self.tsPacket(pts: 900_000, pcr: 810_000))
        cdn.set("/both/v1.ts", contentType: "video/mp2t", Self.tsPacket(pts: 1_080_000, pcr: 990_000))
        cdn.set("/both/subs.m3u8", playlist: Self.playlist([("a.vtt", 4)], target: 4))
        cdn.set("/both/a.vtt", contentType: "text/vtt", Self.vtt(map: (900_000, 0), [(3, 3.5, "mapped")]))
        let session = Harness(cdn: cdn, url: FakeCDN.url("/both/index.m3u8"))
        defer { session.session.close() }
        let harness = try TextHarness(cdn: cdn, path: "/both/subs.m3u8", mapper: { [session = session.session] in session.mpegtsToPresentation($0) })
        defer { harness.loader.stop() }
        harness.loader.start()
        try await waitUntil("the cue parsed, waiting for the video") { harness.loader.unmappedCueCount == 1 }
        session.session.start(at: 0)
        try await waitUntil("the cue") { harness.cues.count == 1 }
        #expect(harness.times == [[3, 3.5]])
    }
}
