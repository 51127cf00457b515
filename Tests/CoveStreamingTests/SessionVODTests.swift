import CoveCore
import CoveStreaming
import CoveTesting
import Foundation
import Synchronization
import Testing

/// A VOD ladder played end to end against an in-memory CDN: which variant each segment comes from,
/// how far ahead the session fetches, what a seek does to the chunks, and how the stream ends.
@Suite("Streaming session: VOD")
struct SessionVODTests {
    static func started(
        _ ladder: Ladder = Ladder(), forwardBuffer: Duration? = nil, cap: Int? = nil, playhead: Double? = nil, at position: Double? = nil
    ) -> Harness {
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        if let forwardBuffer { harness.session.setForwardBuffer(forwardBuffer) }
        harness.session.setMaxBitrate(cap)
        harness.output.setPlayhead(playhead)
        harness.session.start(at: position)
        return harness
    }

    /// The bytes pushed are the segment the chunk names (the fake segments carry variant and sequence).
    static func expectBytesMatch(_ chunks: [MediaChunk], sourceLocation: SourceLocation = #_sourceLocation) {
        for chunk in chunks where chunk.kind == .media {
            #expect(
                chunk.data[0] == 0x47 && chunk.data[1] == UInt8(chunk.variantIndex) && chunk.data[2] == UInt8(chunk.sequence), "chunk \(chunk.sequence)",
                sourceLocation: sourceLocation)
        }
    }

    /// The first segment comes fast from the lowest variant; once a segment was measured — on an
    /// instant in-memory transport, a huge rate — the rest come from the highest.
    @Test func startsLowThenClimbsToTheHighestOnAFastNetwork() async throws {
        let harness = Self.started()
        defer { harness.session.close() }
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        let media = harness.output.media
        #expect(media.map(\.sequence) == Array(0..<12))
        #expect(media.map(\.start) == (0..<12).map(Double.init))
        #expect(media.allSatisfy { $0.duration == 1 })
        #expect(media.first?.variantIndex == 0)
        #expect(media.dropFirst().allSatisfy { $0.variantIndex == 2 }, "\(media.map(\.variantIndex))")
        Self.expectBytesMatch(media)
        // The decoder resynchronises at the start and at the switch, not between continuous segments.
        #expect(media.map(\.discontinuity) == [true, true] + Array(repeating: false, count: 10))
        #expect(harness.events.selectedVariants == [0, 2])
        #expect(harness.events.failures.isEmpty && harness.events.downloadFailures.isEmpty)
        #expect((harness.session.bandwidthEstimate ?? 0) > 1_500_000)
        // Accounting: every request reported, bytes tallied.
        let records = harness.events.requests
        #expect(records.count == harness.cdn.transport.requests.count)
        #expect(harness.session.bytesLoaded == records.reduce(0) { $0 + $1.bytes })
        #expect(records.filter { $0.kind == .segment }.count == 12)
        #expect(records.filter { $0.kind == .segment }.map(\.variantIndex) == media.map(\.variantIndex))
        // Only the variants actually played had their playlists loaded.
        #expect(Set(harness.cdn.requestedPaths.filter { $0.hasSuffix("index.m3u8") }) == ["/vod/v0/index.m3u8", "/vod/v2/index.m3u8"])
    }

    @Test func presentationReadyComesOnceWithTheFirstTimeline() async throws {
        let harness = Self.started()
        defer { harness.session.close() }
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        let ready = harness.events.readyTimelines
        #expect(ready.count == 1)
        #expect(ready.first?.end == 12)
        #expect(ready.first?.isLive == false)
        #expect(harness.session.presentation?.variants.count == 3)
        #expect(harness.session.seekableRange == 0...12)
    }

    /// The estimate is what the link carried, timed on the transfer clock: on a 1.2 Mbit/s link the
    /// 1.5 Mbit/s variant never fits and the 600 kbit/s one does, however busy the machine running it is.
    @Test func aLinkBelowTheTopVariantHoldsTheOneThatFits() async throws {
        let ladder = Ladder()
        let cdn = FakeCDN(link: SimulatedLink(bitsPerSecond: 1_200_000))
        ladder.install(on: cdn)
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        let variants = harness.output.media.map(\.variantIndex)
        #expect(variants == [0] + Array(repeating: 1, count: 11), "\(variants)")
        let estimate = try #require(harness.session.bandwidthEstimate)
        #expect(abs(estimate - 1_200_000) < 1_000, "the estimate is the link's rate: \(estimate)")
    }

    @Test func aBitrateCapKeepsEverySegmentAtOrBelowIt() async throws {
        let ladder = Ladder()
        let harness = Self.started(ladder, cap: 700_000)
        defer { harness.session.close() }
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        let variants = harness.output.media.map(\.variantIndex)
        #expect(variants.allSatisfy { ladder.bandwidths[$0] <= 700_000 }, "\(variants)")
        // The cap limits, it does not pin to the lowest: everything after the first is the 600 kb/s variant.
        #expect(variants.dropFirst().allSatisfy { $0 == 1 }, "\(variants)")
    }

    @Test func aCapSetWhilePlayingAppliesToTheNextSegments() async throws {
        let ladder = Ladder()
        let harness = Self.started(ladder, forwardBuffer: .seconds(3), playhead: 0)
        defer { harness.session.close() }
        try await waitUntil("three seconds buffered") { harness.output.pushedEnd >= 3 }
        let before = harness.output.media.count
        #expect(harness.output.media.last?.variantIndex == 2)
        harness.session.setMaxBitrate(250_000)
        harness.output.setPlayhead(12)
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        let after = harness.output.media.dropFirst(before)
        #expect(!after.isEmpty)
        #expect(after.allSatisfy { $0.variantIndex == 0 }, "\(after.map(\.variantIndex))")
        #expect(harness.output.media.map(\.sequence) == Array(0..<12))
    }

    /// The session must stop at the forward buffer and go on when the playhead moves. Absence of a
    /// fetch cannot be seen as an event, but the session's polls of the playhead can: after a few with
    /// nothing new pushed, it is waiting.
    @Test func theForwardBufferIsHonoured() async throws {
        let harness = Self.started(forwardBuffer: .seconds(6), playhead: 0)
        defer { harness.session.close() }
        try await waitUntil("six seconds buffered") { harness.output.pushedEnd >= 6 }
        var reads = harness.output.playheadReads
        try await waitUntil("the session to poll the playhead while full") { harness.output.playheadReads >= reads + 3 }
        #expect((6.0...7.0).contains(harness.output.pushedEnd), "pushed up to \(harness.output.pushedEnd) with the playhead at 0")
        #expect(harness.output.endOfStream.isEmpty)

        harness.output.setPlayhead(4)
        try await waitUntil("ten seconds buffered") { harness.output.pushedEnd >= 10 }
        reads = harness.output.playheadReads
        try await waitUntil("the session to poll the playhead while full") { harness.output.playheadReads >= reads + 3 }
        #expect((10.0...11.0).contains(harness.output.pushedEnd), "pushed up to \(harness.output.pushedEnd) with the playhead at 4")
        #expect(harness.session.bufferedAhead.map { (6.0...7.0).contains($0) } == true)
        #expect(harness.output.media.map(\.sequence) == Array(0..<harness.output.media.count))
    }

    @Test func aSeekStartsANewGenerationAtTheSegmentHoldingTheTarget() async throws {
        let harness = Self.started(forwardBuffer: .seconds(4), playhead: 0)
        defer { harness.session.close() }
        try await waitUntil("four seconds buffered") { harness.output.pushedEnd >= 4 }
        let first = try #require(harness.output.media.first?.generation)
        let pushedBefore = harness.output.log.count

        let generation = harness.session.seek(to: 7.5)
        harness.output.flush(to: generation)
        harness.output.setPlayhead(7.5)
        #expect(generation > first)
        try await waitUntil("media from 7 s to 11 s") { harness.output.pushedEnd >= 11 }

        let afterSeek = harness.output.log.dropFirst(pushedBefore)
        let current = afterSeek.filter { $0.generation == generation }
        // Older chunks may still arrive from the cancelled fetch; the output drops them by generation.
        #expect(afterSeek.allSatisfy { $0.generation == generation || $0.generation < generation })
        #expect(harness.output.dropped.allSatisfy { $0.generation < generation })
        #expect(harness.output.chunks.allSatisfy { $0.generation == generation })
        let firstAfter = try #require(current.first)
        #expect(firstAfter.sequence == 7)
        #expect(firstAfter.start == 7)
        #expect(firstAfter.discontinuity)
        #expect(current.map(\.sequence) == Array(7..<(7 + current.count)))
        Self.expectBytesMatch(Array(current))
        // Seeking back works the same way, and every seek is a new generation.
        let back = harness.session.seek(to: 0.2)
        harness.output.flush(to: back)
        harness.output.setPlayhead(0.2)
        #expect(back == generation + 1)
        try await waitUntil("media from the start again") { harness.output.media.first?.generation == back && harness.output.media.first?.sequence == 0 }
    }

    /// After the last segment the output hears, once, that the stream ends — after every chunk.
    @Test func theEndIsPushedOnceAfterTheLastSegment() async throws {
        let harness = Self.started(Ladder(segments: 5))
        defer { harness.session.close() }
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        #expect(harness.output.endOfStream == [1])
        #expect(harness.output.endOfStreamAfter == [5])
        #expect(harness.output.media.map(\.sequence) == [0, 1, 2, 3, 4])
        #expect(harness.session.hasPushedEnd)
        // A seek back into the stream starts a generation that ends again, on its own.
        let generation = harness.session.seek(to: 3)
        #expect(!harness.session.hasPushedEnd)
        harness.output.flush(to: generation)
        try await waitUntil("the second end of stream") { harness.output.endOfStream.count == 2 }
        #expect(harness.output.endOfStream == [1, generation])
        #expect(harness.output.media.map(\.sequence) == [3, 4])
        #expect(harness.session.hasPushedEnd)
    }

    /// The end needs no room in the forward buffer: with the playhead held at 0 and a 5 s buffer, the
    /// last of three 2 s segments fills it past the target, and the end still follows at once. (A
    /// pipeline that holds its last buffers until the end arrives never moves the playhead: CI saw a
    /// DASH video stop 6 s short of its end, every segment pushed and the end waiting for room.)
    @Test func theEndFollowsTheLastSegmentWithoutWaitingForRoom() async throws {
        let harness = Self.started(Ladder(segments: 3, duration: 2), forwardBuffer: .seconds(5), playhead: 0)
        defer { harness.session.close() }
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        #expect(harness.output.media.map(\.sequence) == [0, 1, 2])
        #expect(harness.output.endOfStreamAfter == [3])
        #expect(harness.session.bufferedAhead == 6)
    }

    /// The first request waits for the configuration's readiness (the engine still loading its decoders),
    /// then goes out at once.
    @Test func theFirstRequestWaitsForReadiness() async throws {
        let gate = ReadinessGate()
        let ladder = Ladder(segments: 3)
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        var configuration = Harness.fastConfiguration
        configuration.readiness = { await gate.wait() }
        let harness = Harness(cdn: cdn, url: ladder.masterURL, configuration: configuration)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the session to wait for readiness") { gate.waiting }
        #expect(cdn.requestedPaths.isEmpty, "\(cdn.requestedPaths)")
        gate.open()
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        #expect(cdn.requestedPaths.first == "/vod/master.m3u8")
    }

    /// Holds whoever waits until opened.
    final class ReadinessGate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        var waiting: Bool { state.withLock { !$0.waiters.isEmpty } }

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.open { return true }
                    s.waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
                s.open = true
                defer { s.waiters = [] }
                return s.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    @Test func extXStartChoosesWhereAStartWithoutPositionBegins() async throws {
        var ladder = Ladder()
        ladder.root = "/start"
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        cdn.set(
            "/start/master.m3u8",
            playlist: ladder.master.replacingOccurrences(of: "#EXT-X-VERSION:7\n", with: "#EXT-X-VERSION:7\n#EXT-X-START:TIME-OFFSET=-3.5\n"))
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        // 12 − 3.5 = 8.5: segment 8.
        #expect(harness.output.media.map(\.sequence) == [8, 9, 10, 11])
        // An explicit position overrides it.
        let generation = harness.session.seek(to: 2)
        harness.output.flush(to: generation)
        try await waitUntil("the end after the seek") { harness.output.endOfStream.count == 2 }
        #expect(harness.output.media.first?.sequence == 2)
    }

    /// Relative URIs resolve against where the master finally came from, not the URL the app gave.
    @Test func playlistsResolveAgainstTheRedirectedMasterURL() async throws {
        var ladder = Ladder(segments: 3)
        ladder.root = "/moved"
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        let transport = ScriptedHTTPTransport { request throws(HTTPTransportError) in
            if request.url.path == "/old/master.m3u8" {
                return HTTPResponse(status: 302, headers: ["Location": "/moved/master.m3u8"], body: Data(), url: request.url)
            }
            return try await cdn.transport.exchange(request)
        }
        let output = RecordingOutput()
        let events = EventLog()
        var configuration = Harness.fastConfiguration
        configuration.transferClock = cdn.link.clock
        let session = StreamingSession(url: FakeCDN.url("/old/master.m3u8"), transport: transport, configuration: configuration, output: output) {
            events.append($0)
        }
        defer { session.close() }
        session.start(at: nil)
        try await waitUntil("the end of the stream") { !output.endOfStream.isEmpty }
        #expect(output.media.map(\.sequence) == [0, 1, 2])
        #expect(session.presentation?.manifestURL == FakeCDN.url("/moved/master.m3u8"))
        #expect(cdn.requestedPaths.first == "/moved/master.m3u8")
        #expect(cdn.requestedPaths.allSatisfy { $0.hasPrefix("/moved/") })
        #expect(events.failures.isEmpty)
    }

    /// Timestamps restart after EXT-X-DISCONTINUITY (an ad, another encoder): the first chunk after it
    /// tells the demuxer to resynchronise, the ones around it do not.
    @Test func aDiscontinuityIsFlaggedOnTheChunkAfterIt() async throws {
        var ladder = Ladder(bandwidths: [300_000], segments: 5)
        ladder.root = "/disc"
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        cdn.set(
            "/disc/v0/index.m3u8",
            playlist: ladder.mediaPlaylist(variant: 0).replacingOccurrences(of: "#EXTINF:1.0,\nseg3.ts", with: "#EXT-X-DISCONTINUITY\n#EXTINF:1.0,\nseg3.ts"))
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        #expect(harness.output.media.map(\.discontinuity) == [true, false, false, true, false])
        #expect(harness.output.media.map(\.start) == [0, 1, 2, 3, 4])
    }

    /// A segment the playlist marks as a gap is never requested.
    @Test func gapsAreSkipped() async throws {
        var ladder = Ladder(bandwidths: [300_000], segments: 4)
        ladder.root = "/gap"
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        cdn.set(
            "/gap/v0/index.m3u8",
            playlist: ladder.mediaPlaylist(variant: 0).replacingOccurrences(of: "#EXTINF:1.0,\nseg2.ts", with: "#EXT-X-GAP\n#EXTINF:1.0,\nseg2.ts"))
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        #expect(harness.output.media.map(\.sequence) == [0, 1, 3])
        #expect(!cdn.requestedPaths.contains("/gap/v0/seg2.ts"))
        // The segment after a gap does not continue the previous one's timestamps.
        #expect(harness.output.media.last?.discontinuity == true)
    }
}
