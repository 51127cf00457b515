import CoveCore
import CoveStreaming
import CoveTesting
import Foundation
import Testing

/// What goes wrong must end as one typed event, soon: `.failed` when nothing could be pushed (the
/// player cannot start), `.downloadFailed` when media is already buffered (what is there still plays).
/// Never a hang, never a loop.
@Suite("Streaming session: failures")
struct SessionFailureTests {
    static func failure(of harness: Harness, sourceLocation: SourceLocation = #_sourceLocation) async throws -> StreamingError {
        try await waitUntil("a failure event", sourceLocation: sourceLocation) { !harness.events.failures.isEmpty || !harness.events.downloadFailures.isEmpty }
        return try #require((harness.events.failures + harness.events.downloadFailures).first, sourceLocation: sourceLocation)
    }

    static func start(_ cdn: FakeCDN, _ url: URL) -> Harness {
        let harness = Harness(cdn: cdn, url: url)
        harness.session.start(at: nil)
        return harness
    }

    @Test func masterNotFoundFailsWithNotFound() async throws {
        let cdn = FakeCDN()
        let harness = Self.start(cdn, FakeCDN.url("/missing/master.m3u8?token=SECRET99"))
        defer { harness.session.close() }
        let error = try await Self.failure(of: harness)
        #expect(harness.events.failures.count == 1)
        #expect(error.httpStatus == 404)
        #expect(error.playbackError.code == .notFound)
        #expect(!error.description.contains("SECRET99"))
        #expect(harness.output.log.isEmpty)
        #expect(cdn.transport.requests.count == 1)
    }

    /// A captive portal answers the master with a sign-in page: a typed error at once, not a
    /// playlist parse error, not retries.
    @Test func anHTMLPageInsteadOfTheMasterFailsAsNotMediaQuickly() async throws {
        let cdn = FakeCDN()
        cdn.set("/portal/master.m3u8", contentType: "text/html", Data("<!DOCTYPE html><html><body>Sign in to continue</body></html>".utf8))
        let harness = Self.start(cdn, FakeCDN.url("/portal/master.m3u8"))
        defer { harness.session.close() }
        let error = try await Self.failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.notMedia])
        #expect(error.message.contains("an HTML page"))
        #expect(error.playbackError.code == .notMedia)
        #expect(cdn.transport.requests.count == 1)
    }

    @Test func aVariantPlaylistNotFoundFails() async throws {
        let cdn = FakeCDN()
        let ladder = Ladder()
        ladder.install(on: cdn)
        cdn.fail("/vod/v0/index.m3u8", status: 404)
        let harness = Self.start(cdn, ladder.masterURL)
        defer { harness.session.close() }
        let error = try await Self.failure(of: harness)
        #expect(harness.events.failures.count == 1)
        #expect(error.playbackError.code == .notFound)
    }

    @Test func aSegmentNotFoundAfterMediaWasPushedIsADownloadFailure() async throws {
        let cdn = FakeCDN()
        let ladder = Ladder()
        ladder.install(on: cdn)
        for variant in ladder.bandwidths.indices { cdn.fail(ladder.segmentPath(variant: variant, sequence: 3), status: 404) }
        let harness = Self.start(cdn, ladder.masterURL)
        defer { harness.session.close() }
        let error = try await Self.failure(of: harness)
        #expect(harness.events.failures.isEmpty)
        #expect(harness.events.downloadFailures.count == 1)
        #expect(error.httpStatus == 404)
        #expect(error.playbackError.code == .notFound)
        #expect(harness.output.media.map(\.sequence) == [0, 1, 2], "what was fetched before the failure stays pushed")
        #expect(harness.output.endOfStream.isEmpty)
    }

    @Test func aFirstSegmentThatIsAnHTMLPageFails() async throws {
        let cdn = FakeCDN()
        let ladder = Ladder()
        ladder.install(on: cdn)
        cdn.set(ladder.segmentPath(variant: 0, sequence: 0), contentType: "text/html", Data("<html><body>blocked</body></html>".utf8))
        let harness = Self.start(cdn, ladder.masterURL)
        defer { harness.session.close() }
        let error = try await Self.failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.notMedia])
        #expect(error.message.contains("media segment"))
        #expect(harness.output.log.isEmpty)
    }

    @Test func aMediaPlaylistListingItselfIsInvalidNotAHang() async throws {
        let cdn = FakeCDN()
        cdn.set("/loop/master.m3u8", playlist: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nv/index.m3u8\n")
        cdn.set("/loop/v/index.m3u8", playlist: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nindex.m3u8\n#EXTINF:2,\nindex.m3u8\n#EXT-X-ENDLIST\n")
        let harness = Self.start(cdn, FakeCDN.url("/loop/master.m3u8"))
        defer { harness.session.close() }
        let error = try await Self.failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.invalidManifest])
        #expect(error.message.contains("itself"))
        #expect(cdn.requestedPaths == ["/loop/master.m3u8", "/loop/v/index.m3u8"])
    }

    /// The same loop without a master: the app's URL is the media playlist, and it lists itself.
    @Test func aLoneMediaPlaylistListingItselfIsInvalid() async throws {
        let cdn = FakeCDN()
        cdn.set("/loop1/index.m3u8", playlist: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nindex.m3u8\n#EXT-X-ENDLIST\n")
        let harness = Self.start(cdn, FakeCDN.url("/loop1/index.m3u8"))
        defer { harness.session.close() }
        _ = try await Self.failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.invalidManifest])
        #expect(cdn.requestedPaths == ["/loop1/index.m3u8"])
    }

    @Test func aMasterListingItselfIsInvalid() async throws {
        let cdn = FakeCDN()
        cdn.set("/self/master.m3u8", playlist: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nmaster.m3u8\n")
        let harness = Self.start(cdn, FakeCDN.url("/self/master.m3u8"))
        defer { harness.session.close() }
        _ = try await Self.failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.invalidManifest])
        #expect(cdn.requestedPaths == ["/self/master.m3u8"])
    }

    /// SAMPLE-AES needs a DRM Cove does not have: say so, and fetch neither the key nor the segment.
    /// (AES-128 is decrypted: EncryptionTests.)
    @Test func aSampleAESStreamIsUnsupported() async throws {
        let cdn = FakeCDN()
        cdn.set("/enc/master.m3u8", playlist: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nv/index.m3u8\n")
        cdn.set(
            "/enc/v/index.m3u8",
            playlist: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"key.bin\"\n#EXTINF:2,\ns0.ts\n#EXTINF:2,\ns1.ts\n#EXT-X-ENDLIST\n")
        cdn.set("/enc/v/s0.ts", FakeMedia.ts(variant: 0, sequence: 0))
        let harness = Self.start(cdn, FakeCDN.url("/enc/master.m3u8"))
        defer { harness.session.close() }
        let error = try await Self.failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.drmUnsupported])
        #expect(error.message.contains("SAMPLE-AES"))
        #expect(error.playbackError.code == .drmUnsupported)
        #expect(!cdn.requestedPaths.contains("/enc/v/key.bin"))
        #expect(!cdn.requestedPaths.contains("/enc/v/s0.ts"))
        #expect(harness.output.log.isEmpty)
    }

    @Test func closingStopsEverythingWithoutAFailure() async throws {
        let cdn = FakeCDN()
        let ladder = Ladder()
        ladder.install(on: cdn)
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        harness.session.setForwardBuffer(.seconds(2))
        harness.output.setPlayhead(0)
        harness.session.start(at: nil)
        try await waitUntil("two seconds buffered") { harness.output.pushedEnd >= 2 }
        harness.session.close()
        let pushed = harness.output.log.count
        let reads = harness.output.playheadReads
        // Moving the playhead would let an open session fetch more.
        harness.output.setPlayhead(10)
        let seek = harness.session.seek(to: 5)
        #expect(seek > 1)
        // The closed session polls nothing and pushes nothing; give a running one time to show itself.
        let deadline = ContinuousClock.now + .milliseconds(300)
        while ContinuousClock.now < deadline && harness.output.log.count == pushed {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(harness.output.log.count == pushed)
        #expect(harness.output.playheadReads <= reads + 1)
        #expect(harness.events.failures.isEmpty && harness.events.downloadFailures.isEmpty)
    }
}

/// A variant whose segment fails after its retries is left out and the same segment comes from another
/// variant (Shaka's failover): playback carries on with no failure reported.
@Suite("Streaming session: failover")
struct SessionFailoverTests {
    @Test func aSegmentMissingFromTheTopVariantComesFromAnotherOne() async throws {
        let ladder = Ladder()
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        cdn.fail(ladder.segmentPath(variant: 2, sequence: 5), status: 404)
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        let media = harness.output.media
        #expect(media.map(\.sequence) == Array(0..<12), "every segment once, in order")
        let five = try #require(media.first { $0.sequence == 5 })
        #expect(five.variantIndex != 2)
        #expect(harness.events.failures.isEmpty && harness.events.downloadFailures.isEmpty)
        #expect(cdn.requestedPaths.contains(ladder.segmentPath(variant: 2, sequence: 5)), "the top variant was tried first")
    }

    /// Within the app's cap there is nowhere to fail over to: the failure is reported.
    @Test func withTheCapLeavingNoOtherVariantTheFailureIsReported() async throws {
        let ladder = Ladder()
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        cdn.fail(ladder.segmentPath(variant: 0, sequence: 3), status: 404)
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        defer { harness.session.close() }
        harness.session.setMaxBitrate(ladder.bandwidths[0])
        harness.session.start(at: nil)
        try await waitUntil("the download failure") { !harness.events.downloadFailures.isEmpty }
        #expect(harness.output.media.map(\.sequence) == [0, 1, 2])
        #expect(harness.events.downloadFailures.first?.httpStatus == 404)
    }
}
