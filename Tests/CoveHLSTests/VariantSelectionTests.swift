import CoveHLS
import Testing

/// The master-playlist conveniences an ABR policy uses; none of them may reorder `variants`.
@Suite("Variant selection")
struct VariantSelectionTests {
    static let ladder = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720
        720.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360
        360.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.5"
        audio.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=6000000,RESOLUTION=1920x1080
        1080.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=854x480
        480-same-bandwidth.m3u8
        """

    @Test func variantsKeepTheWrittenOrder() throws {
        let playlist = try parseMaster(Self.ladder)
        #expect(playlist.variants.first?.uri == "720.m3u8")
        #expect(playlist.variants.map(\.uri) == ["720.m3u8", "360.m3u8", "audio.m3u8", "1080.m3u8", "480-same-bandwidth.m3u8"])
    }

    @Test func sortedByBandwidthIsStable() throws {
        let playlist = try parseMaster(Self.ladder)
        #expect(playlist.variantsByBandwidth.map(\.uri) == ["audio.m3u8", "360.m3u8", "480-same-bandwidth.m3u8", "720.m3u8", "1080.m3u8"])
        #expect(playlist.lowestVariant?.uri == "audio.m3u8")
    }

    @Test func peakBitrateCap() throws {
        let playlist = try parseMaster(Self.ladder)
        #expect(playlist.variant(fittingPeakBitrate: 3_000_000)?.uri == "720.m3u8")
        #expect(playlist.variant(fittingPeakBitrate: 2_500_000)?.uri == "720.m3u8")
        #expect(playlist.variant(fittingPeakBitrate: 900_000)?.uri == "480-same-bandwidth.m3u8")
        #expect(playlist.variant(fittingPeakBitrate: .max)?.uri == "1080.m3u8")
        // Nothing fits: the lowest, never nothing.
        #expect(playlist.variant(fittingPeakBitrate: 1_000)?.uri == "audio.m3u8")
        #expect(playlist.variant(fittingPeakBitrate: 0)?.uri == "audio.m3u8")
    }

    @Test func highestVariantFittingAScreen() throws {
        let playlist = try parseMaster(Self.ladder)
        #expect(playlist.highestVariant(fittingWidth: 1920, height: 1080)?.uri == "1080.m3u8")
        #expect(playlist.highestVariant(fittingWidth: 1280, height: 720)?.uri == "720.m3u8")
        #expect(playlist.highestVariant(fittingWidth: 1000, height: 500)?.uri == "480-same-bandwidth.m3u8")
        #expect(playlist.highestVariant(fittingWidth: 640, height: 360)?.uri == "360.m3u8")
        #expect(playlist.highestVariant(fittingWidth: 320, height: 180) == nil)
    }

    @Test func segmentLookupByTime() throws {
        let playlist = try parseMedia(Fixtures.ffmpegMedia)
        #expect(playlist.segment(at: 0)?.uri == "seg_000.ts")
        #expect(playlist.segment(at: 1.999)?.uri == "seg_000.ts")
        #expect(playlist.segment(at: 2)?.uri == "seg_001.ts")
        #expect(playlist.segment(at: 7.47)?.uri == "seg_003.ts")
        #expect(playlist.segment(at: 7.48) == nil)
        #expect(playlist.segment(at: -1) == nil)
    }
}
