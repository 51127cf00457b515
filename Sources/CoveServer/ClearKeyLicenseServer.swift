import CoveCore
import Foundation
import Synchronization

/// A W3C ClearKey licence server stand-in on a `MediaServer` route: it reads `{"kids": [...]}` requests
/// and answers the keys it holds as a JWK set, and records every request. Tests turn on what real
/// licence servers do: a required token header (403 without it), a forced status, a wrong key.
public final class ClearKeyLicenseServer: Sendable {
    public let path: String
    private let state: Mutex<State>

    struct State {
        var keys: [KeyID: [UInt8]]
        var requiredToken: (header: String, value: String)?
        var forcedStatus: Int?
        var wrongKeys = false
        var requests: [Recorded] = []
    }

    /// One licence request as the server received it.
    public struct Recorded: Sendable, Hashable {
        public let headers: [String: String]
        public let body: Data
        /// The key IDs it asked for.
        public let keyIDs: [KeyID]
        public let status: Int
    }

    /// Adds the route `path` to `server`, answering `keys`.
    public init(on server: MediaServer, path: String = "/license/clearkey", keys: [KeyID: [UInt8]]) {
        self.path = path
        state = Mutex(State(keys: keys))
        server.addRoute(prefix: path) { [weak self] request in
            guard let self else { return MediaServerResponse(status: 503, body: Data()) }
            return self.answer(request)
        }
    }

    /// Only requests with `header: value` get keys; others get 403.
    public func requireToken(header: String, value: String) { state.withLock { $0.requiredToken = (header.lowercased(), value) } }
    /// Every request answered with `status` (nil: normal service).
    public func force(status: Int?) { state.withLock { $0.forcedStatus = status } }
    /// Answers each key with its bytes reversed: a licence that parses but does not decrypt.
    public func answerWrongKeys(_ on: Bool = true) { state.withLock { $0.wrongKeys = on } }
    public var requests: [Recorded] { state.withLock { $0.requests } }

    private func answer(_ request: MediaServerRequest) -> MediaServerResponse {
        let kids = (try? JSONValue.parse(request.body))?["kids"]?.arrayValue?.compactMap { $0.stringValue.flatMap(KeyID.init(base64URL:)) } ?? []
        return state.withLock { s in
            func record(_ status: Int) { s.requests.append(Recorded(headers: request.headers, body: request.body, keyIDs: kids, status: status)) }
            if let status = s.forcedStatus {
                record(status)
                return MediaServerResponse(status: status, contentType: "text/plain", body: Data("licence refused".utf8))
            }
            if let token = s.requiredToken, request.headers[token.header] != token.value {
                record(403)
                return MediaServerResponse(status: 403, contentType: "text/plain", body: Data("missing or wrong licence token".utf8))
            }
            guard request.method == "POST", !kids.isEmpty else {
                record(400)
                return MediaServerResponse(status: 400, contentType: "text/plain", body: Data("expected a ClearKey request: POST {\"kids\": [...]}".utf8))
            }
            let entries = kids.compactMap { kid -> JSONValue? in
                guard let key = s.keys[kid] else { return nil }
                let bytes = s.wrongKeys ? Array(key.reversed()) : key
                return ["kty": "oct", "kid": .string(kid.base64URL), "k": .string(HexBytes.base64URLEncode(bytes))]
            }
            record(200)
            let body: JSONValue = ["keys": .array(entries), "type": "temporary"]
            return MediaServerResponse(status: 200, body: Data(body.serialized().utf8))
        }
    }
}
