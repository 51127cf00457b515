import CoveCore
import CoveNetworking
import CovePlaybackService
import CoveTesting
import Foundation
import Testing

/// The embedded Playback API server and the client, end to end over loopback HTTP.
@Suite("Catalog server round trips", .serialized)
struct CatalogServerTests {
    static let transport = AsyncHTTPClientTransport()

    static func start(_ settings: JSONObject? = nil, extraVideos: [String: JSONObject] = [:]) async throws -> CatalogServer {
        let sample = try await SampleCatalog.prepare()
        guard settings != nil || !extraVideos.isEmpty else { return try await CatalogServer.start(catalog: sample) }
        // A variant catalog: its own settings, the sample's playlists and media, the sample's videos plus extras.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cove-catalog-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("videos"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(at: root.appendingPathComponent("media"), withDestinationURL: sample.appendingPathComponent("media"))
        try fm.createSymbolicLink(at: root.appendingPathComponent("playlists"), withDestinationURL: sample.appendingPathComponent("playlists"))
        for name in try fm.contentsOfDirectory(atPath: sample.appendingPathComponent("videos").path) {
            try fm.copyItem(at: sample.appendingPathComponent("videos/\(name)"), to: root.appendingPathComponent("videos/\(name)"))
        }
        for (id, video) in extraVideos {
            try Data(JSONValue.object(video).serialized().utf8).write(to: root.appendingPathComponent("videos/\(id).json"))
        }
        var base: JSONObject = [
            "account_id": .string(SampleCatalog.accountID), "policy_keys": [.string(SampleCatalog.policyKey)],
            "auth_tokens": [.string(SampleCatalog.authToken)],
        ]
        base.merge(settings ?? [:]) { _, new in new }
        try Data(JSONValue.object(base).serialized().utf8).write(to: root.appendingPathComponent("catalog.json"))
        return try await CatalogServer.start(catalog: root)
    }

    static func service(_ server: CatalogServer, policyKey: String? = SampleCatalog.policyKey, account: String = SampleCatalog.accountID) -> PlaybackService {
        let factory = PlaybackServiceRequestFactory(
            accountID: account, policyKey: policyKey, baseURL: server.baseURL, authBaseURL: server.baseURL, timeout: .seconds(10))
        return PlaybackService(requestFactory: factory, transport: transport, retry: .none)
    }

    /// The API error a lookup ended with.
    static func apiError<T>(_ lookup: () async throws(PlaybackServiceError) -> T) async -> (status: Int, codes: [String], advice: String)? {
        do {
            _ = try await lookup()
            return nil
        } catch {
            guard case .api(let errors, let status, let advice) = error else { return nil }
            return (status, errors.flatMap { [$0.code, $0.subcode].compactMap { $0 } }, advice)
        }
    }

    @Test func aVideoRoundTripsWithItsMediaServedBesideIt() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        let found = try await Self.service(server).findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder))
        let video = found.value
        #expect(video.id == SampleCatalog.VideoID.ladder)
        #expect(video.accountID == SampleCatalog.accountID)
        #expect(video.duration == .seconds(20))
        #expect(video.economics == .adSupported)
        #expect(video.customFields["genre"] == "test pattern")
        #expect(video.sources.map(\.resolvedDeliveryType) == [.mp4, .hls])
        #expect(video.sources.allSatisfy { $0.url.host == "127.0.0.1" && $0.url.port == server.media.port })
        #expect(video.cuePoints.map(\.position) == [.seconds(5), .seconds(10.5)])
        // Captions in two languages and the thumbnails track (a metadata track without a language).
        #expect(video.textTracks.map(\.language) == ["en", "fr", nil])
        #expect(video.thumbnailVTTURL?.lastPathComponent == "thumbnails.vtt")
        #expect(found.json["sources"]?.arrayValue?.count == 2)
        // Everything the JSON points at is served.
        for url in video.sources.map(\.url) + video.textTracks.map(\.source) {
            let response = try await Self.transport.get(url)
            #expect(response.status == 200, "\(url)")
            #expect(!response.body.isEmpty)
        }
        let manifest = try await Self.transport.get(video.sources[1].url)
        #expect(String(decoding: manifest.body, as: UTF8.self).hasPrefix("#EXTM3U"))
    }

    @Test func referenceIDsFindVideosAndPlaylists() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        let service = Self.service(server)
        #expect(try await service.findVideo(PlaybackServiceConfiguration(assetReferenceID: "audio-only")).value.id == SampleCatalog.VideoID.audioOnly)
        let playlist = try await service.findPlaylist(PlaybackServiceConfiguration(assetReferenceID: SampleCatalog.playlistReferenceID)).value
        #expect(playlist.id == SampleCatalog.playlistID)
        #expect(
            server.media.requests.map(\.path).contains("/playback/v1/accounts/\(SampleCatalog.accountID)/playlists/ref:\(SampleCatalog.playlistReferenceID)"))
    }

    @Test func playlistsKeepMissingVideosAsErrorVideosAndPage() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        let service = Self.service(server)
        let whole = try await service.findPlaylist(PlaybackServiceConfiguration(assetID: SampleCatalog.playlistID)).value
        #expect(
            whole.videos.map(\.id) == [
                SampleCatalog.VideoID.ladder, SampleCatalog.VideoID.audioOnly, SampleCatalog.VideoID.subtitles, SampleCatalog.VideoID.missing,
            ])
        #expect(whole.allPlayableVideos.count == 3)
        #expect(whole.allFailedVideos.map { $0.error?.code } == ["VIDEO_NOT_FOUND"])
        #expect(whole.name == "Cove sample playlist")
        #expect(whole.properties["video_ids"] == nil)

        let page = try await service.findPlaylist(
            PlaybackServiceConfiguration(assetID: SampleCatalog.playlistID), query: PlaybackServiceQuery(limit: 2, offset: 1)
        ).value
        #expect(page.videos.map(\.id) == [SampleCatalog.VideoID.audioOnly, SampleCatalog.VideoID.subtitles])
        let tail = try await service.findPlaylist(PlaybackServiceConfiguration(assetID: SampleCatalog.playlistID), query: PlaybackServiceQuery(offset: 3)).value
        #expect(tail.allFailedVideos.count == 1 && tail.count == 1)
        let past = try await service.findPlaylist(PlaybackServiceConfiguration(assetID: SampleCatalog.playlistID), query: PlaybackServiceQuery(offset: 10))
            .value
        #expect(past.isEmpty)
        let bad = await Self.apiError { () async throws(PlaybackServiceError) in
            try await service.findPlaylist(
                PlaybackServiceConfiguration(assetID: SampleCatalog.playlistID), query: PlaybackServiceQuery(extra: ["limit": "ten"]))
        }
        #expect(bad?.status == 400)
        #expect(bad?.codes == ["BAD_REQUEST", "INVALID_PARAMETER"])
    }

    @Test(arguments: [
        ["BCOV-Policy": SampleCatalog.policyKey],
        ["Authorization": "BCOV-Policy \(SampleCatalog.policyKey)"],
        ["Accept": "application/json;pk=\(SampleCatalog.policyKey)"],
    ])
    func thePolicyKeyIsAcceptedInEachDocumentedHeaderForm(headers: [String: String]) async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        let url = server.baseURL.appendingPathComponent("accounts/\(SampleCatalog.accountID)/videos/\(SampleCatalog.VideoID.bumper)")
        let response = try await Self.transport.send(HTTPRequest(url: url, headers: HTTPHeaders(headers.map { ($0.key, $0.value) })))
        #expect(response.status == 200)
        #expect(try JSONValue.parse(response.body)["name"] == "Cove bumper")
        let wrong = try await Self.transport.send(
            HTTPRequest(url: url, headers: HTTPHeaders(headers.map { ($0.key, $0.value.replacingOccurrences(of: "0001", with: "9999")) })))
        #expect(wrong.status == 401)
    }

    @Test func wrongKeysUnknownIDsAndOtherAccountsAreTheDocumentedErrors() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        let wrongKey = await Self.apiError { () async throws(PlaybackServiceError) in
            try await Self.service(server, policyKey: "BCpkADawqM-not-the-key").findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder))
        }
        #expect(wrongKey?.status == 401)
        #expect(wrongKey?.codes == ["INVALID_POLICY_KEY"])
        #expect(wrongKey?.advice.contains("policy key was rejected") == true)

        let unknown = await Self.apiError { () async throws(PlaybackServiceError) in
            try await Self.service(server).findVideo(PlaybackServiceConfiguration(assetID: "123"))
        }
        #expect(unknown?.status == 404)
        #expect(unknown?.codes == ["VIDEO_NOT_FOUND"])
        #expect(unknown?.advice.contains("No video '123'") == true)
        let unknownPlaylist = await Self.apiError { () async throws(PlaybackServiceError) in
            try await Self.service(server).findPlaylist(PlaybackServiceConfiguration(assetReferenceID: "nope"))
        }
        #expect(unknownPlaylist?.codes == ["PLAYLIST_NOT_FOUND"])
        #expect(unknownPlaylist?.advice.contains("ref:nope") == true)

        let otherAccount = await Self.apiError { () async throws(PlaybackServiceError) in
            try await Self.service(server, account: "999").findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder))
        }
        #expect(otherAccount?.status == 403)
        #expect(otherAccount?.codes == ["ACCESS_DENIED", "ACCOUNT_ID"])

        let post = try await Self.transport.send(
            HTTPRequest(
                method: .post, url: server.baseURL.appendingPathComponent("accounts/\(SampleCatalog.accountID)/videos/1"),
                headers: ["BCOV-Policy": SampleCatalog.policyKey]))
        #expect(post.status == 405)
        #expect(PlaybackAPIDecoder.apiErrors(from: try JSONValue.parse(post.body))?.first?.code == "METHOD_NOT_ALLOWED")
    }

    @Test func aCatalogCanRequireAnAuthToken() async throws {
        let server = try await Self.start(["require_auth_token": true])
        defer { Task { await server.stop() } }
        let service = Self.service(server)
        let missing = await Self.apiError { () async throws(PlaybackServiceError) in
            try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder))
        }
        #expect(missing?.status == 401)
        #expect(missing?.codes == ["ACCESS_DENIED", "TOKEN_REQUIRED"])
        #expect(missing?.advice.contains("authToken") == true)
        // Well formed, signed with another key: the rights service refuses it.
        let forged = try await PlaybackRightsSigner(secret: "not-the-key-registered-for-this-account").token(account: SampleCatalog.accountID)
        let invalid = await Self.apiError { () async throws(PlaybackServiceError) in
            try await service.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder, authToken: forged))
        }
        #expect(invalid?.codes == ["ACCESS_DENIED", "TOKEN_VALIDATION"])
        #expect(invalid?.advice.contains("auth token was rejected") == true)
        // EPA: a token and no policy key at all.
        let epa = Self.service(server, policyKey: nil)
        let found = try await epa.findVideo(PlaybackServiceConfiguration(assetID: SampleCatalog.VideoID.ladder, authToken: SampleCatalog.authToken))
        #expect(found.value.id == SampleCatalog.VideoID.ladder)
        let sent = try #require(server.media.requests.last)
        #expect(sent.headers["authorization"] == "Bearer \(SampleCatalog.authToken)")
        #expect(sent.headers["bcov-policy"] == nil)
    }

    @Test func aCatalogCanRequireAnAdConfigAndThenReturnsVMAPs() async throws {
        let ssai: JSONObject = [
            "id": "6000000000300", "name": "SSAI", "duration": 20000,
            "sources": [["src": "media/main/ladder/master.m3u8", "type": "application/x-mpegURL", "vmap": "media/ads/content.vmap"]],
        ]
        let server = try await Self.start(["require_ad_config_id": true], extraVideos: ["6000000000300": ssai])
        defer { Task { await server.stop() } }
        let service = Self.service(server)
        let refused = await Self.apiError { () async throws(PlaybackServiceError) in
            try await service.findVideo(PlaybackServiceConfiguration(assetID: "6000000000300"))
        }
        #expect(refused?.status == 403)
        #expect(refused?.codes == ["ACCESS_DENIED", "AD_CONFIG"])
        #expect(refused?.advice.contains("ad_config_id") == true)
        let found = try await service.findVideo(PlaybackServiceConfiguration(assetID: "6000000000300"), query: PlaybackServiceQuery(adConfigID: "live-ads"))
        let vmap = try #require(found.value.sources.first?.vmapURL)
        #expect(vmap.host == "127.0.0.1")
        #expect(vmap.query == "ad_config_id=live-ads")
    }

    @Test func withoutAnAdConfigTheVMAPIsLeftOut() async throws {
        let ssai: JSONObject = ["id": "6000000000300", "sources": [["src": "media/main/ladder/master.m3u8", "vmap": "media/ads/content.vmap"]]]
        let server = try await Self.start([:], extraVideos: ["6000000000300": ssai])
        defer { Task { await server.stop() } }
        let found = try await Self.service(server).findVideo(PlaybackServiceConfiguration(assetID: "6000000000300"))
        #expect(found.value.sources.first?.vmapURL == nil)
    }

    @Test func theBumperFromTheConfigurationIsFetchedAndAttached() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        let found = try await Self.service(server).findPlaylist(
            PlaybackServiceConfiguration(assetID: SampleCatalog.playlistID, bumperReferenceID: "cove-bumper")
        )
        #expect(found.value.videos.map { $0.bumper?.id } == [SampleCatalog.VideoID.bumper, nil, nil, nil])
        #expect(found.bumperError == nil)
        #expect(found.value[0].bumper?.duration == .seconds(4))
    }

    @Test func catalogFolderProblemsNameTheFile() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cove-bad-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("videos"), withIntermediateDirectories: true)
        await #expect { try await CatalogServer.start(catalog: root) } throws: { "\($0)".contains("catalog.json is missing") }
        try Data(#"{"policy_keys": []}"#.utf8).write(to: root.appendingPathComponent("catalog.json"))
        await #expect { try await CatalogServer.start(catalog: root) } throws: { "\($0)".contains("account_id") }
        try Data(#"{"account_id": "1"}"#.utf8).write(to: root.appendingPathComponent("catalog.json"))
        try Data(#"{"id": "1", "name": "#.utf8).write(to: root.appendingPathComponent("videos/1.json"))
        await #expect { try await CatalogServer.start(catalog: root) } throws: { "\($0)".contains("videos/1.json") && "\($0)".contains("malformed") }
    }

    @Test func theCatalogsOwnFilesAreNotServed() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        for path in ["catalog.json", "videos/\(SampleCatalog.VideoID.ladder).json", "playlists/\(SampleCatalog.playlistID).json", ".complete"] {
            let response = try await Self.transport.get(server.media.url(path))
            #expect(response.status == 404, "\(path) must not be served")
            #expect(!String(decoding: response.body, as: UTF8.self).contains(SampleCatalog.policyKey))
        }
        #expect(try await Self.transport.get(server.media.url("media/text/en.vtt")).status == 200)
    }
}
