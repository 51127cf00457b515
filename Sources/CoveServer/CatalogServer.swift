import CoveCore
import Foundation
import Logging

/// A local stand-in for the Brightcove Playback API, speaking its wire format, serving a catalog
/// folder and its media from one loopback server (built on `MediaServer`, so every fault of the
/// media server applies to catalog requests too).
///
/// Catalog folder:
///
/// ```
/// catalog.json           {"account_id": "…", "policy_keys": ["…"], "auth_tokens": ["…"],
///                         "rights_secret": "…", "require_auth_token": false, "require_ad_config_id": false}
/// videos/<id>.json       Playback API video objects. Relative URLs (sources[].src, poster,
///                        thumbnail, *_sources[].src, text_tracks[].src) are resolved against the
///                        catalog folder and served from it.
/// playlists/<id>.json    Playlist fields plus "video_ids": [...]; the server fills in "videos".
/// media/…                anything the JSON points at (the only files served directly)
/// ```
///
/// Endpoints: `GET /playback/v1/accounts/{account}/videos/{id | ref:reference}` and
/// `…/playlists/{id | ref:reference}?limit=&offset=`. The policy key is accepted in any of the
/// documented forms (`BCOV-Policy: k`, `Authorization: BCOV-Policy k`, `Accept: application/json;pk=k`);
/// an auth token as `Authorization: Bearer <jwt>`. Errors are the documented JSON arrays with the
/// documented statuses.
///
/// With `rights_secret`, the catalog checks Playback Rights tokens as the rights service does: the
/// signature (HS256 with that secret, see `PlaybackRightsSigner`), `exp` and `nbf` (401
/// `TOKEN_VALIDATION`), `accid` (403 `ACCOUNT_ID`) and `conid` (403 `JWT_AUTH`); a listed `auth_tokens`
/// entry is accepted as it is.
public final class CatalogServer: Sendable {
    public let media: MediaServer
    public let catalog: Catalog

    /// The catalog folder's settings and content, loaded once.
    public struct Catalog: Sendable {
        public let root: URL
        public let accountID: String
        public let policyKeys: [String]
        public let authTokens: [String]
        /// Verifies bearer tokens' signatures and claims when set.
        public let rightsSecret: String?
        public let requireAuthToken: Bool
        public let requireAdConfigID: Bool
        /// Videos by id, as stored (relative URLs unresolved).
        public let videos: [String: JSONObject]
        public let playlists: [String: JSONObject]

        /// Reads a catalog folder; every problem is reported with the file it is in.
        public static func load(from root: URL) throws -> Catalog {
            let fm = FileManager.default
            let settingsURL = root.appendingPathComponent("catalog.json")
            guard fm.fileExists(atPath: settingsURL.path) else {
                throw FixtureError(description: "\(root.path) is not a catalog folder: catalog.json is missing")
            }
            let settings = try readObject(settingsURL)
            guard let account = settings["account_id"]?.stringValue, !account.isEmpty else {
                throw FixtureError(description: "catalog.json: account_id (a string) is required")
            }
            func objects(in folder: String) throws -> [String: JSONObject] {
                let dir = root.appendingPathComponent(folder)
                guard let names = try? fm.contentsOfDirectory(atPath: dir.path) else { return [:] }
                var result: [String: JSONObject] = [:]
                for name in names.sorted() where name.hasSuffix(".json") {
                    let object = try readObject(dir.appendingPathComponent(name))
                    let id = object["id"]?.stringValue ?? String(name.dropLast(5))
                    result[id] = object.merging(["id": .string(id)]) { _, new in new }
                }
                return result
            }
            if let secret = settings["rights_secret"]?.stringValue, secret.utf8.count < PlaybackRightsSigner.minimumSecretBytes {
                throw FixtureError(description: "catalog.json: rights_secret needs at least \(PlaybackRightsSigner.minimumSecretBytes) bytes (HS256)")
            }
            return Catalog(
                root: root.standardizedFileURL, accountID: account,
                policyKeys: settings["policy_keys"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                authTokens: settings["auth_tokens"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                rightsSecret: settings["rights_secret"]?.stringValue,
                requireAuthToken: settings["require_auth_token"]?.boolValue ?? false,
                requireAdConfigID: settings["require_ad_config_id"]?.boolValue ?? false,
                videos: try objects(in: "videos"), playlists: try objects(in: "playlists")
            )
        }

        private static func readObject(_ url: URL) throws -> JSONObject {
            let data: Data
            do { data = try Data(contentsOf: url) } catch { throw FixtureError(description: "\(url.lastPathComponent): cannot be read (\(error))") }
            do {
                guard let object = try JSONValue.parse(data).objectValue else {
                    throw FixtureError(description: "\(url.path): the top level must be a JSON object")
                }
                return object
            } catch let error as JSONParseError {
                throw FixtureError(description: "\(url.path): \(error)")
            }
        }

        func video(_ key: String) -> JSONObject? { Self.find(key, in: videos) }

        func playlist(_ key: String) -> JSONObject? { Self.find(key, in: playlists) }

        /// The object named by a path segment: an ID, or `ref:` and a reference ID.
        private static func find(_ key: String, in objects: [String: JSONObject]) -> JSONObject? {
            guard key.hasPrefix("ref:") else { return objects[key] }
            let reference = String(key.dropFirst(4))
            return objects.values.first { $0["reference_id"]?.stringValue == reference }
        }
    }

    private init(media: MediaServer, catalog: Catalog) {
        self.media = media
        self.catalog = catalog
    }

    /// Serves the catalog folder at `root` on 127.0.0.1.
    public static func start(
        catalog root: URL, port: Int = 0, logger: Logger = Logger(label: "cove.catalog-server", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> CatalogServer {
        let catalog = try Catalog.load(from: root)
        let media = try await MediaServer.start(root: catalog.root, port: port, logger: logger)
        // Only media is served as files: catalog.json holds the keys, videos/ and playlists/ are
        // answered through the API (which checks them).
        media.restrictFiles(toPathsUnder: ["/media/"])
        let server = CatalogServer(media: media, catalog: catalog)
        media.addRoute(prefix: "/playback/v1/") { [weak server] request in
            guard let server else { return MediaServerResponse(status: 503, body: Data()) }
            return await server.respond(to: request)
        }
        return server
    }

    /// The base URL to give `PlaybackServiceRequestFactory(baseURL:)`.
    public var baseURL: URL { media.url("playback/v1") }
    public var accountID: String { catalog.accountID }
    /// The first policy key of the catalog.
    public var policyKey: String? { catalog.policyKeys.first }

    public func stop() async { await media.stop() }

    // MARK: Answering

    func respond(to request: MediaServerRequest) async -> MediaServerResponse {
        guard ["GET", "HEAD", "OPTIONS"].contains(request.method) else {
            return error(405, [("METHOD_NOT_ALLOWED", nil, "Only GET, HEAD and OPTIONS are allowed")])
        }
        let parts = request.path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        // playback / v1 / accounts / {account} / videos|playlists / {id}
        guard parts.count == 6, parts[0] == "playback", parts[1] == "v1", parts[2] == "accounts", ["videos", "playlists"].contains(parts[4]) else {
            return error(404, [("RESOURCE_NOT_FOUND", nil, "No such Playback API resource: \(request.path)")])
        }
        let account = parts[3]
        let kind = parts[4]
        let key = parts[5]
        let query = request.queryItems

        // Authentication: a bearer token (Playback Rights), else a policy key.
        let authorization = request.headers["authorization"] ?? ""
        if authorization.lowercased().hasPrefix("bearer ") {
            let token = String(authorization.dropFirst(7))
            if !catalog.authTokens.contains(token) {
                guard let secret = catalog.rightsSecret else {
                    return error(401, [("ACCESS_DENIED", "TOKEN_VALIDATION", "The token could not be validated")])
                }
                let claims: PlaybackRightsSigner.Claims
                do {
                    claims = try await PlaybackRightsSigner(secret: secret).verify(token)
                } catch {
                    return self.error(401, [("ACCESS_DENIED", "TOKEN_VALIDATION", "The token could not be validated")])
                }
                guard claims.accid == account else {
                    return error(403, [("ACCESS_DENIED", "ACCOUNT_ID", "The token does not allow access to account \(account)")])
                }
                if let content = claims.conid, content != key, catalog.video(key)?["id"]?.stringValue != content {
                    return error(403, [("JWT_AUTH", nil, "The token does not allow this content")])
                }
            }
        } else {
            if catalog.requireAuthToken {
                return error(401, [("ACCESS_DENIED", "TOKEN_REQUIRED", "This content requires a Playback Rights token")])
            }
            guard let key = Self.policyKey(in: request.headers) else {
                return error(401, [("INVALID_POLICY_KEY", nil, "Must provide a BCOV-Policy header")])
            }
            guard catalog.policyKeys.contains(key) else {
                return error(401, [("INVALID_POLICY_KEY", nil, "The policy key provided is not valid")])
            }
        }
        guard account == catalog.accountID else {
            return error(403, [("ACCESS_DENIED", "ACCOUNT_ID", "The policy key does not allow access to account \(account)")])
        }
        if catalog.requireAdConfigID && (query["ad_config_id"] ?? "").isEmpty {
            return error(403, [("ACCESS_DENIED", "AD_CONFIG", "Missing required ad_config_id parameter")])
        }
        if let bad = ["limit", "offset"].first(where: { query[$0].map { Int($0) == nil } ?? false }) {
            return error(400, [("BAD_REQUEST", "INVALID_PARAMETER", "\(bad) must be an integer")])
        }

        if kind == "videos" {
            guard let video = catalog.video(key) else {
                return error(404, [("VIDEO_NOT_FOUND", nil, "Video not found: \(key)")])
            }
            return json(.object(resolved(video, query: query)))
        }
        guard var playlist = catalog.playlist(key) else {
            return error(404, [("PLAYLIST_NOT_FOUND", nil, "Playlist not found: \(key)")])
        }
        let ids = playlist.removeValue(forKey: "video_ids")?.arrayValue?.compactMap(\.stringValue) ?? []
        let limit = min(max(Int(query["limit"] ?? "") ?? 20, 1), 100)
        let offset = max(Int(query["offset"] ?? "") ?? 0, 0)
        let page = ids.dropFirst(offset).prefix(limit)
        playlist["videos"] = .array(
            page.map { id in
                guard let video = catalog.video(id) else {
                    return .object(["id": .string(id), "error_code": "VIDEO_NOT_FOUND", "message": .string("Video \(id) is not available")])
                }
                return .object(resolved(video, query: query))
            })
        return json(.object(playlist))
    }

    /// Relative media URLs made absolute on this server; SSAI `vmap` URLs only with an `ad_config_id`.
    private func resolved(_ video: JSONObject, query: [String: String]) -> JSONObject {
        var object = video
        object["account_id"] = object["account_id"] ?? .string(catalog.accountID)
        let adConfig = query["ad_config_id"].flatMap { $0.isEmpty ? nil : $0 }
        resolveSources(in: &object, "sources") { source in
            // Licence URLs of the source's key systems, like its media, are this server's.
            if var systems = source["key_systems"]?.objectValue {
                for (name, entry) in systems {
                    guard var fields = entry.objectValue else { continue }
                    if fields["license_url"] != nil { fields["license_url"] = absolute(fields["license_url"]) }
                    systems[name] = .object(fields)
                }
                source["key_systems"] = .object(systems)
            }
            guard let vmap = source["vmap"] else { return }
            if let adConfig, let resolvedVMAP = absolute(vmap)?.stringValue {
                source["vmap"] = .string(resolvedVMAP + (resolvedVMAP.contains("?") ? "&" : "?") + "ad_config_id=" + adConfig)
            } else {
                source.removeValue(forKey: "vmap")
            }
        }
        for key in ["poster", "thumbnail"] where object[key] != nil { object[key] = absolute(object[key]) }
        resolveSources(in: &object, "poster_sources")
        resolveSources(in: &object, "thumbnail_sources")
        resolveSources(in: &object, "text_tracks") { track in resolveSources(in: &track, "sources") }
        return object
    }

    /// Makes the `src` of every object in the array at `object[key]` absolute, then applies `more` to it;
    /// anything that is not an array of objects is left as it is.
    private func resolveSources(in object: inout JSONObject, _ key: String, _ more: (inout JSONObject) -> Void = { _ in }) {
        guard let entries = object[key]?.arrayValue else { return }
        object[key] = .array(
            entries.map { entry in
                guard var item = entry.objectValue else { return entry }
                item["src"] = absolute(item["src"])
                more(&item)
                return .object(item)
            })
    }

    /// A relative URL made absolute on this server; absolute URLs and non-strings unchanged.
    private func absolute(_ value: JSONValue?) -> JSONValue? {
        guard let text = value?.stringValue, !text.contains("://") else { return value }
        return .string(media.url(text).absoluteString)
    }

    /// The policy key from any of the three documented header forms.
    static func policyKey(in headers: [String: String]) -> String? {
        if let direct = headers["bcov-policy"], !direct.isEmpty { return direct.trimmingCharacters(in: .whitespaces) }
        if let authorization = headers["authorization"], authorization.lowercased().hasPrefix("bcov-policy ") {
            return String(authorization.dropFirst("bcov-policy ".count)).trimmingCharacters(in: .whitespaces)
        }
        if let accept = headers["accept"], let range = accept.range(of: "pk=") {
            let rest = accept[range.upperBound...]
            return String(rest.prefix { $0 != ";" && $0 != "," && $0 != " " })
        }
        return nil
    }

    private func json(_ value: JSONValue, status: Int = 200) -> MediaServerResponse {
        MediaServerResponse(status: status, contentType: "application/json;charset=UTF-8", body: Data(value.serialized().utf8))
    }

    private func error(_ status: Int, _ entries: [(code: String, subcode: String?, message: String)]) -> MediaServerResponse {
        json(
            .array(
                entries.map { entry in
                    var object: JSONObject = ["error_code": .string(entry.code), "message": .string(entry.message)]
                    if let subcode = entry.subcode { object["error_subcode"] = .string(subcode) }
                    return .object(object)
                }), status: status)
    }
}
