import CoveCore
import Foundation

/// Why a Playback Service lookup failed, typed like the seed's `BCOVPlaybackServiceErrorCode`.
public enum PlaybackServiceError: Error, Sendable, CustomStringConvertible {
    /// The request could not be built (missing ID, bad base URL).
    case invalidRequest(String)
    /// The service could not be reached or did not answer in time (seed code 1).
    case connection(HTTPTransportError)
    /// The answer was not the JSON the API documents (seed code 2). The raw bytes are kept.
    case jsonDeserialization(rawBody: Data, detail: String)
    /// The API answered with an error status (seed code 3): its `[{error_code, error_subcode, message}]`
    /// array (empty when the body was not one) and the HTTP status.
    case api(errors: [PlaybackAPIError], httpStatus: Int, advice: String)
    /// The Playback Rights token cannot be used (malformed, unsigned, expired, for another account):
    /// found before any request was made.
    case invalidAuthToken(PlaybackRightsTokenError)

    /// The rights service's refusal when the API error is one (`TOKEN_REQUIRED`, `CLIENT_GEO`,
    /// `DENIED_BY_STREAM_LIMIT`, …); nil for other failures.
    public var rightsDenial: PlaybackRightsDenial? {
        guard case .api(let errors, _, _) = self else { return nil }
        return errors.lazy.compactMap { PlaybackRightsDenial(code: $0.code, subcode: $0.subcode) }.first
    }

    /// The seed's numeric code: 1 connection, 2 JSON, 3 API (0 is reserved for "no error"; invalid
    /// requests never reach the network and use 4, an unusable auth token 5).
    public var code: Int {
        switch self {
        case .connection: return 1
        case .jsonDeserialization: return 2
        case .api: return 3
        case .invalidRequest: return 4
        case .invalidAuthToken: return 5
        }
    }

    public var name: String {
        switch self {
        case .invalidRequest: return "invalidRequest"
        case .connection: return "connectionError"
        case .jsonDeserialization: return "jsonDeserializationError"
        case .api: return "apiError"
        case .invalidAuthToken: return "invalidAuthToken"
        }
    }

    /// Redacted: a server that echoes the policy key or a token back cannot leak it through here.
    public var description: String { Redaction.redactSecrets(in: unredactedDescription) }

    private var unredactedDescription: String {
        switch self {
        case .invalidRequest(let why): return "Invalid Playback Service request: \(why)"
        case .connection(let error): return "Could not reach the Playback API: \(error)"
        case .jsonDeserialization(let raw, let detail):
            return "The Playback API answered with something that is not the documented JSON (\(raw.count) bytes): \(detail)"
        case .api(let errors, let status, let advice):
            let codes = errors.map(\.description).joined(separator: "; ")
            return "The Playback API refused the request (HTTP \(status)\(codes.isEmpty ? "" : ": " + codes)). \(advice)"
        case .invalidAuthToken(let error): return "\(error)"
        }
    }
}

/// One entry of the Playback API's error array.
public struct PlaybackAPIError: Sendable, Hashable, CustomStringConvertible {
    public let code: String
    public let subcode: String?
    public let message: String?
    /// Every field as sent (`client_geo`, `api_call`, …).
    public let properties: JSONObject

    public init(code: String, subcode: String? = nil, message: String? = nil, properties: JSONObject = [:]) {
        self.code = code
        self.subcode = subcode
        self.message = message
        var raw = properties
        raw["error_code"] = .string(code)
        if let subcode { raw["error_subcode"] = .string(subcode) }
        if let message { raw["message"] = .string(message) }
        self.properties = raw
    }

    /// Redacted: servers sometimes echo the credentials they rejected.
    public var description: String { Redaction.redactSecrets(in: [code, subcode, message].compactMap { $0 }.joined(separator: "/")) }
}
