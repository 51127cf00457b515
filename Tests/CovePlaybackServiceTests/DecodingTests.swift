import CoveCore
import CovePlaybackService
import Foundation
import Testing

/// The documented Playback API samples, decoded field for field.
@Suite("Playback API decoding")
struct DecodingTests {
    func decodeVideo(_ text: String) throws -> Video {
        try PlaybackAPIDecoder.video(from: JSONValue.parse(Array(text.utf8)))
    }

    @Test func legacyVideoKeepsEveryFieldAndMapsSourcesAndCuePoints() throws {
        let video = try decodeVideo(Samples.legacyVideo)
        #expect(video.id == "4084164751001")
        #expect(video.referenceID == "Bird_Chickadee.mp4_1425064251252")
        #expect(video.accountID == "57838016001")
        #expect(video.name == "Chickadee")
        #expect(video.shortDescription == "A small friendly bird...")
        #expect(video.longDescription == nil)
        // duration is milliseconds on the wire.
        #expect(video.duration == .milliseconds(8240))
        #expect(video.properties["duration"] == 8240)
        #expect(video.tags == ["air", "bird", "nature"])
        #expect(video.economics == .adSupported)
        #expect(video.projection == "equirectangular")
        #expect(video.canBeDownloaded == false)
        #expect(video.poster?.absoluteString.hasSuffix("Bird-Chickadee-vs.jpg?pubId=57838016001&videoId=4084164751001") == true)
        #expect(video.posterSources.count == 2)
        #expect(video.thumbnailSources.count == 1)
        #expect(video.thumbnail != nil)
        // Fields without a first-class accessor are kept as sent, nulls included.
        #expect(video.properties["published_at"] == "2015-02-27T19:10:55.425Z")
        #expect(video.properties["link"] == .null)
        #expect(video.properties["ad_keys"] == .null)
        #expect(video.properties["labels"] == ["/nature"])
        #expect(video.properties["sources"] == nil, "sources become values, not properties")
        #expect(video.properties["cue_points"] == nil)

        // The RTMP entry has no src and is skipped; MP4 (container only) and HLS remain.
        #expect(video.sources.count == 2)
        let mp4 = video.sources[0]
        #expect(mp4.deliveryMethod == .mp4)
        #expect(mp4.isMP4)
        #expect(mp4.averageBitrate == 1_108_347)
        #expect(mp4.width == 640 && mp4.height == 344)
        #expect(mp4.size == 1_141_597)
        #expect(mp4.properties["duration"] == 8240)
        #expect(mp4.properties["codec"] == "H264")
        #expect(mp4.properties["asset_id"] == "4084480003001")
        #expect(mp4.properties["src"] == nil, "src is the URL")
        #expect(mp4.url.absoluteString.hasPrefix("http://brightcove.vo.llnwd.net/v1/uds/pd/"))
        let hls = video.sources[1]
        #expect(hls.deliveryMethod == .hls)
        #expect(hls.container == "M2TS")
        #expect(hls.scheme == "https")

        // cue_points[].time is seconds.
        #expect(video.cuePoints.count == 2)
        let cues = Array(video.cuePoints)
        #expect(cues[0].type == .ad && cues[0].position == .zero)
        #expect(cues[1].type == .code && cues[1].position == .seconds(10.527))
        #expect(cues[1].properties["metadata"] == "chapter=2")
        #expect(cues[1].properties["force_stop"] == true)
        #expect(cues[1].properties["name"] == "Chapter")

        let track = try #require(video.textTracks.first)
        #expect(track.language == "en" && track.label == "EN" && track.kind == .captions)
        #expect(track.mimeType == "text/webvtt")
        #expect(track.isDefault == false)
        #expect(track.alternativeSources.count == 2)
        #expect(track.properties["in_band_metadata_track_dispatch_type"] == "")
    }

    @Test func drmDynamicDeliveryKeepsKeySystemsOnEachSource() throws {
        let video = try decodeVideo(Samples.drmVideo)
        #expect(video.sources.count == 2)
        let fairPlay = video.sources[0]
        #expect(fairPlay.isHLS)
        #expect(fairPlay.properties["ext_x_version"] == "5")
        let fps = try #require(fairPlay.keySystems["com.apple.fps.1_0"])
        #expect(fps["certificate_url"] == "https://manifest.prod.boltdns.net/license/v1/fairplay_app_cert/2728142649001")
        #expect(fps["key_request_url"]?.stringValue?.contains("fastly_token=ft2") == true)
        let dash = video.sources[1]
        #expect(dash.isDASH)
        #expect(dash.properties["profiles"] == "urn:mpeg:dash:profile:isoff-live:2011")
        #expect(Set(dash.keySystems.keys) == ["com.widevine.alpha", "com.microsoft.playready"])
        #expect(video.properties["offline_enabled"] == false)
        // The default policy prefers HLS; the DRM-free policy has nothing it can play here.
        #expect(SourceSelectionPolicy.default(video) == fairPlay)
        #expect(SourceSelectionPolicy.withoutDRM()(video) == nil)
    }

    @Test func clearDynamicDeliveryHasHLSDashAndMP4Renditions() throws {
        let video = try decodeVideo(Samples.clearDynamicDeliveryVideo)
        #expect(video.sources.map(\.resolvedDeliveryType) == [.hls, .hls, .dash, .mp4, .mp4])
        #expect(video.sources.filter(\.isMP4).map(\.averageBitrate) == [2_000_000, 500_000])
        #expect(video.canBeDownloaded)
        #expect(video.economics == .free)
        #expect(video.customFields["bumper_id"] == "777")
        #expect(video.customFields["genre"] == "birds")
        // The seed's policy: HLS first, HTTPS preferred.
        #expect(SourceSelectionPolicy.default(video)?.properties["ext_x_version"] == "4")
    }

    /// A catalog answer comes from the network: a source that is not http(s) (a device file, RTMP) is
    /// left out, so no answer can make the player read local files.
    @Test func sourcesThatAreNotHTTPAreLeftOut() throws {
        let json =
            #"{"id": "1", "account_id": "6", "sources": [{"src": "file:///etc/passwd", "type": "application/x-mpegURL"}, {"src": "cove-offline://t/master.m3u8"}, {"src": "rtmp://host/app/stream"}, {"src": "https://cdn.example.com/a/master.m3u8", "type": "application/x-mpegURL"}]}"#
        let video = try decodeVideo(json)
        #expect(video.sources.map(\.url.absoluteString) == ["https://cdn.example.com/a/master.m3u8"])
    }

    @Test func ssaiResponseKeepsTheVMAPOfEverySource() throws {
        let video = try decodeVideo(Samples.ssaiVideo)
        #expect(video.sources.count == 3)
        #expect(video.sources.allSatisfy { $0.vmapURL != nil })
        #expect(video.sources[0].vmapURL?.absoluteString.hasSuffix("content.vmap?bc_token=b1") == true)
        #expect(video.sources[1].codecs == ["avc1", "mp4a"])
        #expect(video.duration == .milliseconds(24128))
        #expect(video.properties["text_tracks"] == [])
        #expect(video.textTracks.isEmpty)
    }

    @Test func playlistsKeepFailedVideosAsErrorVideos() throws {
        let playlist = try PlaybackAPIDecoder.playlist(from: JSONValue.parse(Array(Samples.playlist.utf8)))
        #expect(playlist.count == 3)
        #expect(playlist.id == "749117323001")
        #expect(playlist.name == "Manual")
        #expect(playlist.type == "EXPLICIT")
        #expect(playlist.properties["reference_id"] == .null)
        #expect(playlist.properties["updated_at"] == "2015-09-20T18:45:52.606Z")
        #expect(playlist.properties["videos"] == nil)
        #expect(playlist.allPlayableVideos.map(\.id) == ["4084164751001", "4084164751002"])
        let failed = try #require(playlist.allFailedVideos.first)
        #expect(playlist.allFailedVideos.count == 1)
        #expect(failed.id == "4084164751003")
        #expect(
            failed.error == VideoError(code: "VIDEO_NOT_PLAYABLE", subcode: "CLIENT_GEO", message: "Access to this resource is forbidden by access policy."))
        #expect(failed.sources.isEmpty)
        #expect(playlist[1].cuePoints.first?.position == .seconds(3.5))
    }

    @Test func encodingGivesBackTheWireFormat() throws {
        for sample in [Samples.legacyVideo, Samples.drmVideo, Samples.clearDynamicDeliveryVideo, Samples.ssaiVideo] {
            let video = try decodeVideo(sample)
            let again = try PlaybackAPIDecoder.video(from: PlaybackAPIEncoder.json(video))
            #expect(again == video)
        }
        let playlist = try PlaybackAPIDecoder.playlist(from: JSONValue.parse(Array(Samples.playlist.utf8)))
        #expect(try PlaybackAPIDecoder.playlist(from: PlaybackAPIEncoder.json(playlist)) == playlist)
        // Seconds on request: duration of the video and of its sources.
        let seconds = PlaybackAPIEncoder.json(try decodeVideo(Samples.legacyVideo), timesInSeconds: true)
        #expect(seconds["duration"]?.doubleValue == 8.24)
        #expect(seconds["sources"]?.arrayValue?.first?["duration"]?.doubleValue == 8.24)
        #expect(seconds["cue_points"]?.arrayValue?.last?["time"]?.doubleValue == 10.527)
    }

    @Test(arguments: [
        (#"{"id": "1", "sources": {"src": "x"}}"#, "video.sources"),
        (#"{"id": "1", "sources": ["https://a/b.m3u8"]}"#, "video.sources[0]"),
        (#"{"id": "1", "sources": [{"src": 42}]}"#, "video.sources[0].src"),
        (#"{"id": "1", "sources": [{"src": "no scheme here"}]}"#, "video.sources[0].src"),
        (#"{"id": "1", "duration": "8240"}"#, "video.duration"),
        (#"{"id": ["1"]}"#, "video.id"),
        (#"{"id": "1", "cue_points": [{"time": "ten"}]}"#, "video.cue_points[0].time"),
        (#"{"id": "1", "cue_points": [{"time": -1}]}"#, "video.cue_points[0].time"),
        (#"{"id": "1", "text_tracks": {}}"#, "video.text_tracks"),
        (#"{"id": "1", "tags": "a,b"}"#, "video.tags"),
        (#"{"id": "1", "custom_fields": []}"#, "video.custom_fields"),
        (#"{"id": "1", "offline_enabled": "yes"}"#, "video.offline_enabled"),
        (#"["not", "an", "object"]"#, "video"),
    ])
    func wrongFieldTypesNameTheField(json: String, path: String) throws {
        let value = try JSONValue.parse(Array(json.utf8))
        #expect {
            try PlaybackAPIDecoder.video(from: value)
        } throws: { error in
            (error as? PlaybackAPIDecoder.DecodingFailure)?.path == path
        }
    }

    @Test func aMalformedPlaylistEntryBecomesAnErrorVideoAndTheRestStillPlays() throws {
        let value = try JSONValue.parse(
            Array(#"{"videos": [{"id": "1", "sources": [{"src": "https://e.com/1.m3u8"}]}, 7, {"id": "3", "name": "Bad", "duration": "long"}]}"#.utf8))
        let playlist = try PlaybackAPIDecoder.playlist(from: value)
        #expect(playlist.count == 3)
        #expect(playlist.allPlayableVideos.map(\.id) == ["1"])
        let failures = playlist.allFailedVideos
        #expect(failures.map { $0.error?.code } == [PlaybackAPIDecoder.malformedVideoCode, PlaybackAPIDecoder.malformedVideoCode])
        #expect(failures[0].error?.message?.contains("playlist.videos[1]") == true)
        #expect(failures[1].error?.message?.contains("playlist.videos[2].duration") == true)
        #expect(failures[1].id == "3" && failures[1].name == "Bad", "what could be read is kept")
        // A playlist whose videos field is not a list is still an error as a whole.
        #expect(throws: PlaybackAPIDecoder.DecodingFailure.self) { try PlaybackAPIDecoder.playlist(from: ["videos": "none"]) }
    }

    @Test(arguments: [
        (#"[{"error_code": "VIDEO_NOT_FOUND"}]"#, ["VIDEO_NOT_FOUND"]),
        (#"[{"error_code": "A"}, {"error_code": "B", "message": "m"}, {"error_code": "C", "error_subcode": "D", "message": "m"}]"#, ["A", "B", "C/D/m"]),
        (#"{"errors": [{"error_code": "ACCESS_DENIED", "error_subcode": "CLIENT_GEO", "client_geo": "us", "message": "x"}]}"#, ["ACCESS_DENIED/CLIENT_GEO/x"]),
        (#"{"error_code": "SERVER_ERROR"}"#, ["SERVER_ERROR"]),
    ])
    func apiErrorArraysInEveryDocumentedShape(json: String, expected: [String]) throws {
        let errors = try #require(PlaybackAPIDecoder.apiErrors(from: JSONValue.parse(Array(json.utf8))))
        #expect(errors.map { [$0.code, $0.subcode, $0.subcode == nil ? nil : $0.message].compactMap { $0 }.joined(separator: "/") } == expected)
    }

    @Test func extraErrorFieldsAreKept() throws {
        let json =
            #"[{"api_call": "search", "error_subcode": "API", "error_code": "ACCESS_DENIED", "message": "Access to this resource is forbidden by access policy."}]"#
        let error = try #require(PlaybackAPIDecoder.apiErrors(from: JSONValue.parse(Array(json.utf8)))?.first)
        #expect(error.properties["api_call"] == "search")
        #expect(error.subcode == "API")
    }
}
