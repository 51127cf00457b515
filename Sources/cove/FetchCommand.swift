import ArgumentParser
import CoveCore
import CoveNetworking
import CovePlaybackService
import CovePlayerControls
import Foundation

struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Look up a video or a playlist through the Playback API and print what Cove decodes from it."
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable { case video, playlist }

    @Argument(help: "video or playlist")
    var kind: Kind

    @Argument(help: "The asset ID (or reference ID with --ref).")
    var id: String

    @Option(help: "Account ID.")
    var account: String

    @Option(name: .customLong("policy-key"), help: "Policy key (not needed with --auth-token). Default: $COVE_POLICY_KEY, which keeps it out of `ps`.")
    var policyKey: String?

    @Option(name: .customLong("auth-token"), help: "Playback Rights JWT, sent as a bearer token. Default: $COVE_AUTH_TOKEN.")
    var authToken: String?

    @Option(name: .customLong("base-url"), help: "Playback API base URL (default: Brightcove's).")
    var baseURL: String?

    @Flag(help: "Treat the ID as a reference ID.")
    var ref = false

    @Option(name: .customLong("bumper-id"), help: "Bumper video ID to attach.")
    var bumperID: String?

    @Option(name: .customLong("param"), help: "Query parameter k=v (repeatable): limit, offset, ad_config_id, config_id, livePlaybackToken, or any other.")
    var params: [String] = []

    @Flag(help: "Print JSON (wire field names, times in seconds) instead of a summary.")
    var json = false

    @Flag(name: .customLong("show-secrets"), help: "Print URLs with their tokens (bcov_auth, fastly_token, …); they are redacted by default.")
    var showSecrets = false

    func run() async throws {
        var extra: [String: String] = [:]
        for param in params {
            guard let eq = param.firstIndex(of: "="), eq != param.startIndex else { throw ValidationError("--param takes key=value, got '\(param)'") }
            extra[String(param[..<eq])] = String(param[param.index(after: eq)...])
        }
        func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let text = extra.removeValue(forKey: name) else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ValidationError("--param \(name)=\(text): \(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        var query = PlaybackServiceQuery()
        query.limit = try integer("limit", in: 1...100)
        query.offset = try integer("offset", in: 0...Int(Int32.max))
        query.adConfigID = extra.removeValue(forKey: "ad_config_id")
        query.configID = extra.removeValue(forKey: "config_id")
        query.livePlaybackToken = extra.removeValue(forKey: "livePlaybackToken")
        query.extra = extra
        let access = try CatalogAccess(policyKey: policyKey, authToken: authToken, baseURL: baseURL)
        var configuration = PlaybackServiceConfiguration(authToken: access.authToken, bumperID: bumperID)
        if ref { configuration.assetReferenceID = id } else { configuration.assetID = id }
        let service = PlaybackService(accountID: account, policyKey: access.policyKey, baseURL: access.baseURL, transport: AsyncHTTPClientTransport.shared)
        do throws(PlaybackServiceError) {
            switch kind {
            case .video:
                let found = try await service.findVideo(configuration, query: query)
                if json { Terminal.line(output(PlaybackAPIEncoder.json(found.value, timesInSeconds: true))) } else { Terminal.line(Self.summary(found.value)) }
            case .playlist:
                let found = try await service.findPlaylist(configuration, query: query)
                if json {
                    Terminal.line(output(PlaybackAPIEncoder.json(found.value, timesInSeconds: true)))
                } else {
                    Terminal.line(
                        "Playlist \(found.value.id ?? "?") “\(found.value.name ?? "")”: \(found.value.count) videos (\(found.value.allFailedVideos.count) unavailable)"
                    )
                    for video in found.value.videos { Terminal.line("  " + Self.summary(video).replacingOccurrences(of: "\n", with: "\n  ")) }
                }
            }
        } catch {
            if json {
                Terminal.line(Redaction.redactSecrets(in: Self.json(error).serialized(pretty: true)))
            } else {
                Terminal.error("cove fetch: \(error)")
            }
            throw ExitCode(1)
        }
    }

    /// Pretty JSON, with credentials inside URLs redacted unless `--show-secrets`.
    private func output(_ value: JSONValue) -> String {
        (showSecrets ? value : Self.redactingURLs(value)).serialized(pretty: true)
    }

    static func redactingURLs(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where text.contains("://"): return .string(Redaction.redact(urlString: text))
        case .array(let items): return .array(items.map(redactingURLs))
        case .object(let object): return .object(object.mapValues(redactingURLs))
        default: return value
        }
    }

    static func summary(_ video: Video) -> String {
        if let error = video.error { return "✗ \(video.id ?? "?"): \(error)" }
        var lines = ["▶ \(video.id ?? "?") “\(video.name ?? "")” \(video.duration.map { "\(MediaTime($0))" } ?? "")"]
        for source in video.sources { lines.append("    \(source.resolvedDeliveryType?.rawValue ?? "?")  \(Redaction.redact(url: source.url))") }
        if !video.cuePoints.isEmpty { lines.append("    cue points: " + video.cuePoints.map { "\($0.type)@\($0.position)" }.joined(separator: ", ")) }
        if !video.textTracks.isEmpty {
            lines.append("    text tracks: " + video.textTracks.map { "\($0.language ?? "?") (\($0.kind))" }.joined(separator: ", "))
        }
        if let bumper = video.bumper { lines.append("    bumper: \(bumper.id ?? "?") “\(bumper.name ?? "")”") }
        return lines.joined(separator: "\n")
    }

    static func json(_ error: PlaybackServiceError) -> JSONValue {
        var object: JSONObject = ["error": .string(error.name), "code": .int(Int64(error.code)), "message": .string(error.description)]
        switch error {
        case .api(let errors, let status, _):
            object["httpStatus"] = .int(Int64(status))
            object["errors"] = .array(errors.map { .object($0.properties) })
        case .connection(let transport):
            object["cause"] = .string(transport.kind.rawValue)
        case .jsonDeserialization(let raw, _):
            object["bytes"] = .int(Int64(raw.count))
        case .invalidRequest:
            break
        case .invalidAuthToken:
            object["cause"] = "authToken"
        }
        if let denial = error.rightsDenial { object["rightsDenial"] = .string(denial.description) }
        return .object(object)
    }
}
