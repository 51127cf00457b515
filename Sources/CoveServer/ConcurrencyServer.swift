import CoveCore
import Foundation
import Synchronization

/// A stand-in for the Generic Stream Concurrency service, installed on a `MediaServer` (beside a
/// catalog, as the real services share the rights token): it keeps each viewer's (`uid`) slots (`sid`)
/// up to the token's `climit`, lets a slot lapse when its heartbeats stop for `expiry`, frees it on
/// release, and refuses a slot past the limit with the documented `DENIED_BY_STREAM_LIMIT_CREATE`
/// (`…_RENEW` for a lapsed slot's renewal) and the active sessions. Speaks the wire format
/// `StreamConcurrencyService` documents. Tokens are checked with `PlaybackRightsSigner` when a
/// secret is given (401 `TOKEN_VALIDATION` otherwise).
public final class ConcurrencyServer: Sendable {
    /// One heartbeat or release as received.
    public struct Call: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case start, renewal, release }
        public let kind: Kind
        public let userID: String
        public let sessionID: String
        public let accepted: Bool
        public let at: Date
    }

    private struct Slot {
        var lastSeen: Date
        var videoID: String?
    }

    private struct Waiter {
        let matches: @Sendable (Call) -> Bool
        let continuation: CheckedContinuation<Call?, Never>
    }

    private struct State {
        var slots: [String: [String: Slot]] = [:]
        var calls: [Call] = []
        var waiters: [UUID: Waiter] = [:]
    }

    public let media: MediaServer
    public let interval: Duration
    public let expiry: Duration
    private let secret: String?
    private let state = Mutex(State())

    /// `interval`: what heartbeats answer; `expiry`: how long a slot outlives its last heartbeat.
    public init(on media: MediaServer, interval: Duration, expiry: Duration? = nil, secret: String? = nil) {
        self.media = media
        self.interval = interval
        self.expiry = expiry ?? interval * 3
        self.secret = secret
        media.addRoute(prefix: "/api/v1/accounts/") { [weak self] request in
            guard let self else { return MediaServerResponse(status: 503, body: Data()) }
            return await self.respond(to: request)
        }
    }

    /// The base URL to give `StreamConcurrencyService`.
    public var baseURL: URL { media.baseURL }

    public var calls: [Call] { state.withLock { $0.calls } }

    /// The first call (already received, or the next to come) that `matches`; nil after `timeout`.
    public func waitForCall(timeout: Duration = .seconds(10), where matches: @escaping @Sendable (Call) -> Bool) async -> Call? {
        let id = UUID()
        let timer = Task {
            try? await Task.sleep(for: timeout)
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(returning: nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let found = state.withLock { s -> Call? in
                if let call = s.calls.first(where: matches) { return call }
                s.waiters[id] = Waiter(matches: matches, continuation: continuation)
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    private func record(_ call: Call, in s: inout State) -> [CheckedContinuation<Call?, Never>] {
        s.calls.append(call)
        let due = s.waiters.filter { $0.value.matches(call) }
        for id in due.keys { s.waiters.removeValue(forKey: id) }
        return due.values.map(\.continuation)
    }

    /// The viewer's slots that have not lapsed.
    public func activeSessions(of userID: String) -> [String] {
        let now = Date()
        return state.withLock { s in (s.slots[userID] ?? [:]).filter { now.timeIntervalSince($0.value.lastSeen) < MediaTime(expiry).seconds }.keys.sorted() }
    }

    /// Takes the slot away (as when the viewer's account dropped it): its next renewal is refused if
    /// the viewer's other slots are at the limit.
    public func revoke(userID: String, sessionID: String) {
        state.withLock { _ = $0.slots[userID]?.removeValue(forKey: sessionID) }
    }

    private func respond(to request: MediaServerRequest) async -> MediaServerResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        // api / v1 / accounts / {account} / sessions [/ {sid}]
        guard parts.count >= 5, parts[4] == "sessions" else { return Self.json(404, ["code": "NOT_FOUND"]) }
        let authorization = request.headers["authorization"] ?? ""
        guard authorization.lowercased().hasPrefix("bearer "), let token = try? PlaybackRightsToken.parse(String(authorization.dropFirst(7))) else {
            return Self.json(401, ["code": "ACCESS_DENIED", "sub_code": "TOKEN_REQUIRED"])
        }
        if let secret, (try? await PlaybackRightsSigner(secret: secret).verify(token.compact)) == nil {
            return Self.json(401, ["code": "ACCESS_DENIED", "sub_code": "TOKEN_VALIDATION"])
        }
        guard let userID = token.claims.userID, let limit = token.claims.concurrencyLimit else {
            return Self.json(400, ["code": "BAD_REQUEST", "message": "the token needs uid and climit"])
        }
        let now = Date()
        if request.method == "DELETE", parts.count == 6 {
            let sid = parts[5].removingPercentEncoding ?? parts[5]
            let call = Call(kind: .release, userID: userID, sessionID: sid, accepted: true, at: now)
            let due = state.withLock { s in
                _ = s.slots[userID]?.removeValue(forKey: sid)
                return record(call, in: &s)
            }
            for waiter in due { waiter.resume(returning: call) }
            return MediaServerResponse(status: 204, contentType: "application/json", body: Data())
        }
        guard request.method == "POST", parts.count == 5,
            let body = try? JSONValue.parse(request.body).objectValue, let sid = body["sid"]?.stringValue, !sid.isEmpty
        else {
            return Self.json(400, ["code": "BAD_REQUEST", "message": "POST {\"sid\": …} to …/sessions"])
        }
        let renewal = body["renewal"]?.boolValue ?? false
        let expiry = MediaTime(self.expiry).seconds
        let (call, listed, due) = state.withLock { s -> (Call, [JSONValue], [CheckedContinuation<Call?, Never>]) in
            var slots = (s.slots[userID] ?? [:]).filter { now.timeIntervalSince($0.value.lastSeen) < expiry }
            let accepted = slots[sid] != nil || slots.count < limit
            if accepted { slots[sid] = Slot(lastSeen: now, videoID: body["video_id"]?.stringValue) }
            s.slots[userID] = slots
            let call = Call(kind: renewal ? .renewal : .start, userID: userID, sessionID: sid, accepted: accepted, at: now)
            let due = record(call, in: &s)
            let listed: [JSONValue] = slots.sorted { $0.key < $1.key }.map { key, slot in
                ["sid": .string(key), "video_id": slot.videoID.map(JSONValue.string) ?? .null, "last_seen": .double(slot.lastSeen.timeIntervalSince1970)]
            }
            return (call, listed, due)
        }
        for waiter in due { waiter.resume(returning: call) }
        guard call.accepted else {
            return Self.json(
                403,
                [
                    "code": "ACCESS_DENIED", "sub_code": .string(renewal ? "DENIED_BY_STREAM_LIMIT_RENEW" : "DENIED_BY_STREAM_LIMIT_CREATE"),
                    "sessions": .array(listed),
                ])
        }
        return Self.json(200, ["heartbeat_interval": .double(MediaTime(interval).seconds), "sessions": .array(listed)])
    }

    private static func json(_ status: Int, _ object: JSONObject) -> MediaServerResponse {
        MediaServerResponse(status: status, contentType: "application/json", body: Data(JSONValue.object(object).serialized().utf8))
    }
}
