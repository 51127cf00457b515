import CoveCore
import CoveStreaming
import Foundation
import Testing

@testable import CoveOffline

/// The planner's choices and the offline playlists, as pure functions.
@Suite("Offline plan")
struct OfflinePlanTests {
    static let base = URL(string: "https://cdn.example/v/")!

    static func variant(_ index: Int, _ bandwidth: Int, height: Int) -> VariantTrack {
        VariantTrack(index: index, bandwidth: bandwidth, width: height * 16 / 9, height: height, playlistURL: base.appendingPathComponent("\(index).m3u8"))
    }

    static let ladder = [variant(0, 2_600_000, height: 720), variant(1, 400_000, height: 240), variant(2, 1_100_000, height: 480)]

    @Test func theVariantIsTheHighestWithinTheBitrateAndHeight() throws {
        #expect(try DownloadPlanner.chooseVariant(Self.ladder, parameters: .init()).index == 0)
        #expect(try DownloadPlanner.chooseVariant(Self.ladder, parameters: .init(requestedBitrate: 1_500_000)).index == 2)
        #expect(try DownloadPlanner.chooseVariant(Self.ladder, parameters: .init(requestedBitrate: 100_000)).index == 1, "the lowest when none fits")
        #expect(try DownloadPlanner.chooseVariant(Self.ladder, parameters: .init(maximumHeight: 480)).index == 2)
        #expect(try DownloadPlanner.chooseVariant(Self.ladder, parameters: .init(requestedBitrate: 3_000_000, maximumHeight: 100)).index == 1)
        #expect(throws: OfflineError.self) { try DownloadPlanner.chooseVariant([], parameters: .init()) }
    }

    @Test func audioIsTheDefaultOrTheRequestedLanguages() throws {
        let renditions = [("English", "en-US", false), ("Français", "fr", true), ("Deutsch", "de", false)].map {
            AlternateRendition(kind: .audio, groupID: "a", name: $0.0, language: $0.1, isDefault: $0.2, playlistURL: Self.base)
        }
        #expect(try DownloadPlanner.chooseAudio(renditions, languages: []).map(\.name) == ["Français"])
        #expect(try DownloadPlanner.chooseAudio(renditions, languages: ["en", "de"]).map(\.name) == ["English", "Deutsch"])
        #expect(try DownloadPlanner.chooseAudio(renditions, languages: ["de", "fr"]).map(\.name) == ["Français", "Deutsch"], "the default first")
        let error = #expect(throws: OfflineError.self) { try DownloadPlanner.chooseAudio(renditions, languages: ["ja"]) }
        #expect(error?.code == .invalidParameter && error?.message.contains("en-US, fr, de") == true)
        #expect(try DownloadPlanner.chooseAudio([], languages: []).isEmpty)
        #expect(throws: OfflineError.self) { try DownloadPlanner.chooseAudio([], languages: ["en"]) }
    }

    @Test func languagesMatchByPrimaryTag() {
        #expect(DownloadPlanner.matches("en-US", "en") && DownloadPlanner.matches("en", "en-US") && DownloadPlanner.matches("EN_us", "en-us"))
        #expect(!DownloadPlanner.matches("en-GB", "en-US") && !DownloadPlanner.matches("fr", "en"))
    }

    /// The copy's media playlist: files renamed in order, a map where the init changes, discontinuities kept,
    /// every encrypted segment with its key's offline name and an explicit IV, gaps never fetched.
    @Test func theMediaPlaylistNamesStoredFilesKeysAndIVs() throws {
        let key = SegmentKey(method: .aes128, keyURL: URL(string: "https://keys.example/k1?token=s3cret")!)
        let rotated = SegmentKey(method: .aes128, keyURL: URL(string: "https://keys.example/k2")!, iv: Array(repeating: 7, count: 16))
        let initA = InitSection(url: URL(string: "https://cdn.example/init.mp4")!, byteRange: ByteSpan(offset: 0, length: 800))
        let initB = InitSection(url: URL(string: "https://cdn.example/p2/init.mp4")!)
        let segments = [
            SegmentReference(
                sequence: 40, start: 0, duration: 2, url: URL(string: "https://cdn.example/all.mp4")!, byteRange: ByteSpan(offset: 800, length: 1000),
                initSection: initA, key: key),
            SegmentReference(
                sequence: 41, start: 2, duration: 2, url: URL(string: "https://cdn.example/all.mp4")!, byteRange: ByteSpan(offset: 1800, length: 900),
                initSection: initA, key: key),
            SegmentReference(
                sequence: 42, start: 4, duration: 1.5, url: URL(string: "https://cdn.example/gap.m4s")!, initSection: initA, key: rotated, isGap: true),
            SegmentReference(sequence: 43, start: 5.5, duration: 2, url: URL(string: "https://cdn.example/p2/a.m4s")!, initSection: initB, discontinuity: 1),
        ]
        var names: [URL: String] = [:]
        let part = try OfflinePlaylistWriter.mediaPlaylist(
            for: .init(playlistPath: "video.m3u8", folder: "video", timeline: MediaTimeline(segments: segments, targetDuration: 2, isLive: false)),
            bitrate: 1_000_000, keyNames: &names)
        #expect(part.files.map(\.path) == ["video/init-0.mp4", "video/00000.mp4", "video/00001.mp4", "video/init-1.mp4", "video/00003.m4s"])
        #expect(part.files[1].byteRange == ByteSpan(offset: 800, length: 1000) && part.files[1].estimatedBytes == 1000)
        #expect(part.keys.map(\.name) == ["key/0", "key/1"])
        let lines = part.playlist.split(separator: "\n").map(String.init)
        #expect(lines.contains("#EXT-X-MAP:URI=\"video/init-0.mp4\"") && lines.contains("#EXT-X-MAP:URI=\"video/init-1.mp4\""))
        #expect(lines.contains("#EXT-X-KEY:METHOD=AES-128,URI=\"key/0\",IV=0x00000000000000000000000000000028"), "sequence 40 as the IV")
        #expect(lines.contains("#EXT-X-KEY:METHOD=AES-128,URI=\"key/0\",IV=0x00000000000000000000000000000029"))
        #expect(lines.contains("#EXT-X-KEY:METHOD=AES-128,URI=\"key/1\",IV=0x07070707070707070707070707070707"))
        #expect(lines.contains("#EXT-X-DISCONTINUITY") && lines.contains("#EXT-X-KEY:METHOD=NONE") && lines.contains("#EXT-X-GAP"))
        #expect(lines.last == "#EXT-X-ENDLIST" && !part.playlist.contains("s3cret"), "key URLs stay in the index, never in the playlist")
    }

    @Test func sampleAESCannotBeStored() {
        let segment = SegmentReference(
            sequence: 0, start: 0, duration: 2, url: Self.base,
            key: SegmentKey(method: .sampleAES, keyURL: Self.base, keyFormat: "com.apple.streamingkeydelivery"))
        var names: [URL: String] = [:]
        let error = #expect(throws: OfflineError.self) {
            try OfflinePlaylistWriter.mediaPlaylist(
                for: .init(playlistPath: "v.m3u8", folder: "v", timeline: MediaTimeline(segments: [segment], targetDuration: 2, isLive: false)), bitrate: 1,
                keyNames: &names)
        }
        #expect(error?.code == .unsupported && error?.message.contains("SAMPLE-AES") == true)
    }

    @Test func theMasterPlaylistListsTheStoredRenditions() {
        let master = OfflinePlaylistWriter.masterPlaylist(
            variant: Self.ladder[0], videoPath: "video.m3u8",
            audio: [.init(name: "English \"main\"", language: "en", isDefault: true, playlistPath: "audio-0.m3u8")],
            text: [.init(name: "English", language: "en", isDefault: false, isForced: false, playlistPath: "text-0.m3u8")], extraCodecs: ["mp4a.40.2"]
        )
        #expect(
            master.contains("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"audio\",NAME=\"English main\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio-0.m3u8\""))
        #expect(
            master.contains("TYPE=SUBTITLES") && master.contains("AUDIO=\"audio\"") && master.contains("SUBTITLES=\"subs\"")
                && master.contains("RESOLUTION=1280x720"))
        #expect(master.contains("CODECS=\"mp4a.40.2\""))
    }

    @Test func offlineRangesAndContentRangesParse() {
        #expect(OfflineVideoManager.byteRange("bytes=10-19", size: 100) == 10..<20)
        #expect(OfflineVideoManager.byteRange("bytes=90-", size: 100) == 90..<100)
        #expect(OfflineVideoManager.byteRange("bytes=-10", size: 100) == 90..<100)
        #expect(OfflineVideoManager.byteRange("bytes=100-", size: 100) == nil)
        #expect(OfflineVideoManager.byteRange("bytes=5-1", size: 100) == nil)
        #expect(OfflineVideoManager.byteRange("bytes=1-2,4-5", size: 100) == nil)
        #expect(OfflineVideoManager.byteRange("items=1-2", size: 100) == nil)
    }

    @Test func tokensAreSafeNames() {
        #expect(OfflineVideoToken(validating: " 7787CDD2-7ec8 ")?.rawValue == "7787cdd2-7ec8")
        for bad in ["", "../x", "a/b", "a b", "ä", String(repeating: "a", count: 65)] { #expect(OfflineVideoToken(validating: bad) == nil, "\(bad)") }
    }

    @Test func licenceTermsAreChecked() {
        #expect(throws: OfflineError.self) { try OfflineLicenseTerms(rentalDuration: 0).validate() }
        #expect(throws: OfflineError.self) { try OfflineLicenseTerms(playDuration: .nan).validate() }
        #expect(throws: Never.self) { try OfflineLicenseTerms.rental(seconds: 60, playDuration: 10).validate() }
    }
}
