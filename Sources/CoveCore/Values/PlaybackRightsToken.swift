import Foundation

/// A Playback Rights (EPA) token: the JWT an app passes so that the Playback API, the media and the
/// stream-concurrency service know who watches. Cove reads its claims **without trusting them** — it
/// does not hold the publisher's key, the rights service checks the signature — to fail early and
/// clearly (a malformed or expired token is refused before any request is made) and to fill what the
/// claims drive on this side (the concurrency user and limit, the session ID).
///
/// The token itself is a secret: it is registered with `Redaction` when parsed and never appears in a
/// description, an error or a log line.
public struct PlaybackRightsToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The token as the app gave it (JWS compact serialization), to send and nothing else.
    public let compact: String
    /// The JOSE header's `alg`.
    public let algorithm: String
    public let claims: PlaybackRightsClaims

    /// A token longer than this is refused: real ones are well under 2 KB, and the token travels in
    /// headers and URLs.
    public static let maxLength = 8_192

    /// Reads `text` (surrounding whitespace and a `Bearer ` prefix ignored). Throws a typed error saying
    /// what is wrong: not three base64url parts, a part that is not a JSON object, an unsigned
    /// (`alg: none`) token, a claim of the wrong type, too long.
    public static func parse(_ text: String) throws(PlaybackRightsTokenError) -> PlaybackRightsToken {
        var token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if token.lowercased().hasPrefix("bearer ") { token = String(token.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
        guard !token.isEmpty else { throw .malformed("the token is empty") }
        guard token.utf8.count <= maxLength else {
            throw .malformed("the token has \(token.utf8.count) bytes; a Playback Rights token is a compact JWT of at most \(maxLength)")
        }
        // Registered before any error can quote a part of it.
        Redaction.register(secret: token)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .malformed("a JWT has three dot-separated parts (header.claims.signature); this token has \(parts.count)")
        }
        let header = try object(parts[0], named: "header")
        let payload = try object(parts[1], named: "claims")
        guard let algorithm = header["alg"]?.stringValue, !algorithm.isEmpty else {
            throw .malformed("the header names no signing algorithm (alg)")
        }
        guard algorithm.lowercased() != "none", !parts[2].isEmpty else {
            throw .unsigned
        }
        guard Base64URL.decode(parts[2]) != nil else { throw .malformed("the signature is not base64url") }
        return PlaybackRightsToken(compact: token, algorithm: algorithm, claims: try PlaybackRightsClaims(payload))
    }

    /// Checks the time claims at `now`: expired (`exp` at or before now) and not yet valid (`nbf` after
    /// now, beyond `leeway` for clock skew) are typed errors; a token without `exp` passes (the service
    /// decides).
    public func check(at now: Date, leeway: TimeInterval = 0) throws(PlaybackRightsTokenError) {
        if let expiry = claims.expiresAt, expiry.addingTimeInterval(leeway) <= now {
            throw .expired(at: expiry)
        }
        if let notBefore = claims.notBefore, notBefore.timeIntervalSince(now) > leeway {
            throw .notYetValid(from: notBefore)
        }
    }

    public var description: String {
        "PlaybackRightsToken(alg: \(algorithm), \(claims), token: \(Redaction.placeholder))"
    }

    public var debugDescription: String { description }

    private static func object(_ part: Substring, named name: String) throws(PlaybackRightsTokenError) -> JSONObject {
        guard let bytes = Base64URL.decode(part) else { throw .malformed("the \(name) part is not base64url") }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes, limits: JSONLimits(maxBytes: maxLength, maxDepth: 8))
        } catch {
            throw .malformed("the \(name) part is not JSON (\(error))")
        }
        guard let object = value.objectValue else { throw .malformed("the \(name) part is not a JSON object") }
        return object
    }
}

/// Which of a stream's own requests carry the Playback Rights token, as the `bcov_auth` query item
/// (the catalog request always carries it, as a bearer token). Off by default: the token identifies
/// the viewer, and only a rights-guarded key server or CDN needs it.
public enum PlaybackRightsMediaRequests: Sendable, Hashable {
    /// Only the catalog request.
    case none
    /// Decryption key requests too.
    case keys
    /// Every request of the stream: manifests, segments, keys and text. (A progressive file the
    /// engine reads itself, not through Cove's streaming, gets no query item.)
    case all
}

/// The claims Cove reads (Brightcove's documented Playback Rights claims), and every claim as sent.
public struct PlaybackRightsClaims: Sendable, Hashable, CustomStringConvertible {
    /// `accid`: the Video Cloud account the token is for.
    public let accountID: String?
    /// `exp`, `nbf`, `iat`.
    public let expiresAt: Date?
    public let notBefore: Date?
    public let issuedAt: Date?
    /// `uid`: the viewer, for stream concurrency and device limits.
    public let userID: String?
    /// `climit`: how many streams `userID` may watch at once (stream concurrency).
    public let concurrencyLimit: Int?
    /// `cbeh`: what happens past the limit (`BLOCK_NEW`, `BLOCK_NEW_USER`).
    public let concurrencyBehaviour: String?
    /// `sid`: the concurrency session ID the app chose (wins over one Cove makes).
    public let sessionID: String?
    /// `dlimit`: how many devices `userID` may use.
    public let deviceLimit: Int?
    /// `conid`: the one video the token plays, when it is restricted to one.
    public let contentID: String?
    /// Every claim as sent (`prid`, `tags`, `vod`, `ssai`, …).
    public let all: JSONObject

    init(_ claims: JSONObject) throws(PlaybackRightsTokenError) {
        func string(_ name: String) throws(PlaybackRightsTokenError) -> String? {
            guard let value = claims[name], !value.isNull else { return nil }
            if let text = value.stringValue { return text }
            if let number = value.int64Value { return String(number) }
            throw .malformed("the claim \(name) must be a string")
        }
        func integer(_ name: String) throws(PlaybackRightsTokenError) -> Int? {
            guard let value = claims[name], !value.isNull else { return nil }
            if let number = value.int64Value, let exact = Int(exactly: number) { return exact }
            if let text = value.stringValue, let number = Int(text) { return number }
            throw .malformed("the claim \(name) must be a whole number")
        }
        func date(_ name: String) throws(PlaybackRightsTokenError) -> Date? {
            guard let value = claims[name], !value.isNull else { return nil }
            guard let seconds = value.doubleValue, seconds.isFinite, abs(seconds) < 1e11 else {
                throw .malformed("the claim \(name) must be a time in seconds since 1970")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        accountID = try string("accid")
        expiresAt = try date("exp")
        notBefore = try date("nbf")
        issuedAt = try date("iat")
        userID = try string("uid")
        concurrencyLimit = try integer("climit")
        concurrencyBehaviour = try string("cbeh")
        sessionID = try string("sid")
        deviceLimit = try integer("dlimit")
        contentID = try string("conid")
        if let limit = concurrencyLimit, limit < 1 { throw .malformed("the claim climit must be at least 1; it is \(limit)") }
        all = claims
    }

    /// Names only what drives behaviour; claim values an app may consider private (the viewer) are left out.
    public var description: String {
        var parts: [String] = []
        if let accountID { parts.append("accid: \(accountID)") }
        if let expiresAt { parts.append("exp: \(Int(expiresAt.timeIntervalSince1970))") }
        if let concurrencyLimit { parts.append("climit: \(concurrencyLimit)") }
        if userID != nil { parts.append("uid: set") }
        return "claims(\(parts.joined(separator: ", ")))"
    }
}

/// Why a Playback Rights token cannot be used. Never quotes the token.
public enum PlaybackRightsTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a compact JWT Cove can read.
    case malformed(String)
    /// `alg: none` or an empty signature: the rights service refuses unsigned tokens.
    case unsigned
    /// `exp` has passed.
    case expired(at: Date)
    /// `nbf` is still ahead.
    case notYetValid(from: Date)
    /// `accid` names another account than the one the request is for.
    case wrongAccount(token: String, request: String)

    public var description: String {
        switch self {
        case .malformed(let why):
            return "The Playback Rights token is malformed: \(why). Pass the JWT your entitlement service issued, unchanged"
        case .unsigned:
            return
                "The Playback Rights token is unsigned (alg none or no signature); the rights service refuses it. Sign it with the key registered for the account"
        case .expired(let at):
            return "The Playback Rights token expired at \(Self.format(at)); get a new one from your entitlement service"
        case .notYetValid(let from):
            return "The Playback Rights token is not valid before \(Self.format(from)); check the device clock or the token's nbf"
        case .wrongAccount(let token, let request):
            return "The Playback Rights token is for account \(token), but the request is for account \(request); use a token issued for \(request)"
        }
    }

    private static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// base64url without padding (RFC 7515 §2), as JWT parts are written; padded input is accepted too.
enum Base64URL {
    static func decode(_ text: Substring) -> [UInt8]? {
        var standard = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !standard.contains("=") || standard.hasSuffix("=") else { return nil }
        standard = standard.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        switch standard.utf8.count % 4 {
        case 0: break
        case 2: standard += "=="
        case 3: standard += "="
        default: return nil
        }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}

extension PlaybackRightsToken: CustomReflectable {
    /// `dump` and debuggers see the claims, never the token.
    public var customMirror: Mirror {
        Mirror(self, children: ["algorithm": algorithm, "claims": claims, "compact": Redaction.placeholder], displayStyle: .struct)
    }
}

extension PlaybackRightsClaims: CustomReflectable {
    /// As `description`: the viewer's ID is shown as set or not, not its value.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "accountID": accountID as Any, "expiresAt": expiresAt as Any, "notBefore": notBefore as Any, "issuedAt": issuedAt as Any,
                "userID": userID == nil ? "nil" : "set", "concurrencyLimit": concurrencyLimit as Any, "concurrencyBehaviour": concurrencyBehaviour as Any,
                "sessionID": sessionID == nil ? "nil" : "set", "deviceLimit": deviceLimit as Any, "contentID": contentID as Any,
            ], displayStyle: .struct)
    }
}
