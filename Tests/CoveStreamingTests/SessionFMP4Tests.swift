import CoveCore
import CoveStreaming
import CoveTesting
import Foundation
import Testing

/// fMP4 fragments cannot be decoded without their variant's init segment: it must reach the decoder
/// before the first fragment, again whenever the variant changes or a seek flushes the decoder, and
/// not otherwise (a repeated init segment costs a download and a decoder reset).
@Suite("Streaming session: fMP4")
struct SessionFMP4Tests {
    static func describe(_ chunks: [MediaChunk]) -> [String] {
        chunks.map { "\($0.kind == .initSegment ? "init" : "media")-v\($0.variantIndex)\($0.kind == .media ? "-\($0.sequence)" : "")" }
    }

    @Test func initSegmentPrecedesTheFirstFragmentAndEachVariantSwitch() async throws {
        let ladder = Ladder(segments: 5, fmp4: true)
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        #expect(Self.describe(harness.output.chunks) == ["init-v0", "media-v0-0", "init-v2", "media-v2-1", "media-v2-2", "media-v2-3", "media-v2-4"])
        let inits = harness.output.chunks.filter { $0.kind == .initSegment }
        #expect(inits.allSatisfy { $0.discontinuity && $0.data[4..<8] == Data("ftyp".utf8) })
        #expect(inits.map { $0.data[8] } == [0, 2], "each init segment is its own variant's")
        #expect(cdn.requestedPaths.filter { $0.hasSuffix("init.mp4") } == ["/vod/v0/init.mp4", "/vod/v2/init.mp4"])
        #expect(harness.events.requests.filter { $0.kind == .initSegment }.count == 2)

        // A seek flushes the decoder: the init segment comes again first, once.
        let generation = harness.session.seek(to: 3.2)
        harness.output.flush(to: generation)
        try await waitUntil("the end after the seek") { harness.output.endOfStream.count == 2 }
        #expect(Self.describe(harness.output.chunks) == ["init-v2", "media-v2-3", "media-v2-4"])
    }

    /// A seek that lands while the old generation is between pushing an init segment and recording
    /// it: the new generation must still push its own init segment first. (The output here seeks from
    /// inside `push`, which is exactly that moment.)
    @Test func aSeekDuringAnInitPushStillGivesTheNewGenerationItsInitSegment() async throws {
        let ladder = Ladder(bandwidths: [300_000], segments: 6, fmp4: true)
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        defer { harness.session.close() }
        let session = harness.session
        let output = harness.output
        let seeks = Recorded<Int>()
        output.onPush { chunk in
            guard chunk.kind == .initSegment, chunk.generation == 1 else { return }
            let generation = session.seek(to: 2)
            output.flush(to: generation)
            seeks.append(generation)
        }
        session.start(at: nil)
        try await waitUntil("the end after the seek") { !output.endOfStream.isEmpty }
        #expect(seeks.all == [2])
        #expect(output.endOfStream == [2])
        #expect(Self.describe(output.chunks) == ["init-v0", "media-v0-2", "media-v0-3", "media-v0-4", "media-v0-5"])
    }

    /// Variants sharing one init section (same URL): a switch between them still pushes it again, as
    /// the decoder was configured for the previous variant's stream.
    @Test func everyVariantOfAnUnmuxedLadderGetsItsOwnInit() async throws {
        var ladder = Ladder(bandwidths: [200_000, 1_500_000], segments: 3, fmp4: true)
        ladder.root = "/shared"
        let cdn = FakeCDN()
        ladder.install(on: cdn)
        for variant in 0..<2 {
            cdn.set(
                "/shared/v\(variant)/index.m3u8",
                playlist: ladder.mediaPlaylist(variant: variant).replacingOccurrences(of: "URI=\"init.mp4\"", with: "URI=\"/shared/init.mp4\""))
        }
        cdn.set("/shared/init.mp4", FakeMedia.box("ftyp", size: 500, tag: 9))
        let harness = Harness(cdn: cdn, url: ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        try await waitUntil("the end of the stream") { !harness.output.endOfStream.isEmpty }
        #expect(Self.describe(harness.output.chunks) == ["init-v0", "media-v0-0", "init-v1", "media-v1-1", "media-v1-2"])
    }
}
