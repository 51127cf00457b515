import CoveCore
import Foundation

/// The Generic Stream Concurrency (GSC) client: heartbeats that hold a viewer's stream slot, and the
/// release that frees it. The viewer and the limit come from the Playback Rights token (`uid`,
/// `climit`); the slot is named by a session ID (`sid`: the token's, else the app's, else one Cove
/// makes per device).
///
/// Wire format. Brightcove documents the feature and its errors, not the heartbeat's HTTP shape; what is
/// known (host `edge-gsc.api.brightcove.com`, path `/api/v1/accounts/…`, `heartbeat_interval`, errors as
/// `code`/`sub_code`) is kept, and the rest is Cove's choice, matched by the test kit's stand-in:
///
/// - heartbeat: `POST {base}/api/v1/accounts/{account}/sessions` with `Authorization: Bearer <jwt>` and
///   `{"sid": …, "video_id": …, "renewal": false|true}`; 2xx answers `{"heartbeat_interval": seconds,
///   "sessions": [...]}`;
/// - refusal: 401/403 with `{"code": "ACCESS_DENIED", "sub_code": "DENIED_BY_STREAM_LIMIT_CREATE", "sessions": [...]}`
///   (`error_code`/`error_subcode` are read too);
/// - release: `DELETE {base}/api/v1/accounts/{account}/sessions/{sid}`.
///
/// Only an explicit refusal stops a stream: a failed, slow, malformed or non-JSON answer is
/// `unavailable`, and playback goes on (the next heartbeat tries again).
public struct StreamConcurrencyService: Sendable {
    public static let defaultBaseURL = URL(string: "https://edge-gsc.api.brightcove.com")!
    /// The interval when the service names none, and the bounds a named one is held to.
    public static let defaultInterval: Duration = .seconds(60)
    public static let intervalBounds: ClosedRange<Duration> = .milliseconds(100) ... .seconds(3600)

    public let accountID: String
    /// nil: the proxy domain when one is set, else Brightcove's host.
    public let baseURL: URL?
    public let transport: any HTTPTransport
    public var timeout: Duration
    private let globalConfiguration: GlobalConfiguration

    public init(
        accountID: String, baseURL: URL? = nil, transport: any HTTPTransport, timeout: Duration = .seconds(10),
        globalConfiguration: GlobalConfiguration = .shared
    ) {
        self.accountID = accountID
        self.baseURL = baseURL
        self.transport = transport
        self.timeout = timeout
        self.globalConfiguration = globalConfiguration
    }

    /// An explicit base URL wins, then the proxy domain (its `/api/v1/accounts` path), then Brightcove's host.
    public var effectiveBaseURL: URL { route.url }

    /// How heartbeats are routed (and whether an explicit base URL bypasses a proxy domain the app set).
    public var route: ServiceRoute { globalConfiguration.route(explicit: baseURL, proxyPath: "", brightcove: Self.defaultBaseURL) }

    /// What an accepted heartbeat said.
    public struct Heartbeat: Sendable, Hashable {
        /// When to send the next one.
        public let interval: Duration
        /// The viewer's active sessions as the service listed them.
        public let sessions: [JSONValue]
    }

    /// Holds (`renewal` false: takes) the slot `sessionID` for the token's viewer.
    public func heartbeat(token: PlaybackRightsToken, sessionID: String, videoID: String?, renewal: Bool) async throws(StreamConcurrencyError) -> Heartbeat {
        var body: JSONObject = ["sid": .string(sessionID), "renewal": .bool(renewal)]
        if let videoID { body["video_id"] = .string(videoID) }
        let url = sessionsURL()
        var request = HTTPRequest(
            method: .post, url: url, headers: headers(token), body: Data(JSONValue.object(body).serialized().utf8), timeout: timeout,
            maxResponseBytes: 256 << 10)
        request.headers["Content-Type"] = "application/json"
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw .unavailable("the heartbeat could not be sent (\(error))")
        }
        let json = try? JSONValue.parse(response.body, limits: JSONLimits(maxBytes: 256 << 10, maxDepth: 16))
        guard response.isSuccess else {
            if let refusal = Self.refusal(json, status: response.status) { throw refusal }
            throw .unavailable("the concurrency service answered HTTP \(response.status) without a refusal it documents")
        }
        guard let object = json?.objectValue else {
            throw .unavailable("the concurrency service answered HTTP \(response.status) with something that is not a JSON object")
        }
        // Bounded before it becomes a Duration: a hostile 1e300 must not overflow the conversion.
        let interval: Duration
        if let seconds = object["heartbeat_interval"]?.doubleValue, seconds.isFinite, seconds > 0 {
            interval = .milliseconds(Int64((min(max(seconds, 0.1), 3600) * 1000).rounded()))
        } else {
            interval = Self.defaultInterval
        }
        return Heartbeat(interval: interval, sessions: object["sessions"]?.arrayValue ?? [])
    }

    /// Frees the slot `sessionID` at once (the service would otherwise hold it until heartbeats stop
    /// arriving for long enough).
    public func release(token: PlaybackRightsToken, sessionID: String) async throws(StreamConcurrencyError) {
        let escaped = sessionID.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? sessionID
        let url = URL(string: sessionsURL().absoluteString + "/" + escaped) ?? sessionsURL()
        let request = HTTPRequest(method: .delete, url: url, headers: headers(token), timeout: timeout, maxResponseBytes: 64 << 10)
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw .unavailable("the release could not be sent (\(error))")
        }
        guard response.isSuccess || response.status == 404 else {
            throw .unavailable("the concurrency service answered the release with HTTP \(response.status)")
        }
    }

    private func sessionsURL() -> URL {
        effectiveBaseURL.appendingPathComponent("api/v1/accounts").appendingPathComponent(accountID).appendingPathComponent("sessions")
    }

    private func headers(_ token: PlaybackRightsToken) -> HTTPHeaders {
        ["Authorization": "Bearer \(token.compact)", "Accept": "application/json"]
    }

    /// A refusal the service documents (a rights denial that is not transient), with its sessions.
    static func refusal(_ json: JSONValue?, status: Int) -> StreamConcurrencyError? {
        let entries: [JSONObject]
        if let object = json?.objectValue {
            entries = [object] + (object["errors"]?.arrayValue?.compactMap(\.objectValue) ?? [])
        } else {
            entries = json?.arrayValue?.compactMap(\.objectValue) ?? []
        }
        for entry in entries {
            let code = entry["code"]?.stringValue ?? entry["error_code"]?.stringValue
            let subcode = entry["sub_code"]?.stringValue ?? entry["error_subcode"]?.stringValue
            guard let denial = PlaybackRightsDenial(code: code, subcode: subcode), denial != .rightsUnavailable else { continue }
            let sessions = entry["sessions"]?.arrayValue ?? json?.objectValue?["sessions"]?.arrayValue ?? []
            return .denied(denial, sessions: sessions, httpStatus: status)
        }
        return nil
    }
}

/// Why a heartbeat or a release did not go through.
public enum StreamConcurrencyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The service refused the stream: stop it.
    case denied(PlaybackRightsDenial, sessions: [JSONValue], httpStatus: Int)
    /// No answer that decides anything (network, 5xx, a timeout, junk): the stream goes on.
    case unavailable(String)

    public var description: String {
        switch self {
        case .denied(let denial, let sessions, let status):
            return
                "The stream-concurrency service refused the stream (\(denial), HTTP \(status), \(sessions.count) active session\(sessions.count == 1 ? "" : "s")). \(denial.advice)"
        case .unavailable(let why):
            return Redaction.redactSecrets(in: "The stream-concurrency service could not be asked: \(why); playback goes on and the next heartbeat tries again")
        }
    }
}
