import Foundation

/// Why the Playback Rights service (EPA) refused a stream, read from the Playback API's error
/// `error_code`/`error_subcode` (or the concurrency service's `code`/`sub_code`). Every documented EPA
/// code has its case and its advice; anything else is not a rights denial (nil from `init`).
public enum PlaybackRightsDenial: Sendable, Hashable, CustomStringConvertible {
    /// `TOKEN_REQUIRED`: the content needs a token and none was sent.
    case tokenRequired
    /// `TOKEN_VALIDATION`, `JWT_AUTH`: the token's signature, claims or expiry were refused.
    case tokenRejected
    /// `ACCOUNT_ID`: the token (or key) is for another account.
    case wrongAccount
    /// `CLIENT_GEO`: not available from this country.
    case geoRestricted
    /// `CLIENT_IP`: not available from this address.
    case ipRestricted
    /// `DOMAIN`: not available from this domain.
    case domainRestricted
    /// `OFFERS`: the viewer's entitlement does not include this content.
    case notEntitled
    /// `TAGS`: the token's tags do not match the content's.
    case tagsMismatch
    /// `DENIED_BY_STREAM_LIMIT`, `…_CREATE`, `…_RENEW`: the viewer watches as many streams as the
    /// token's `climit` allows. `renewal` when an existing stream's heartbeat was refused.
    case streamLimit(renewal: Bool)
    /// `DENIED_BY_DEVICE_LIMITING`: the viewer uses as many devices as allowed.
    case deviceLimit
    /// `PLAYBACK_RIGHT_RETRIEVE_FAILURE`, `RIGHTS_RETRIEVE_FAILURE`, `LICENSE_RETRIEVE_FAILURE`,
    /// `OFFERS_RETRIEVE_FAILURE`: the rights service could not decide (a server-side failure; retry).
    case rightsUnavailable

    /// The denial a code pair means (the subcode is more specific and wins); nil for other errors.
    public init?(code: String?, subcode: String?) {
        for candidate in [subcode, code].compactMap({ $0?.uppercased() }) {
            if let denial = Self.byCode[candidate] {
                self = denial
                return
            }
        }
        return nil
    }

    private static let byCode: [String: PlaybackRightsDenial] = [
        "TOKEN_REQUIRED": .tokenRequired,
        "TOKEN_VALIDATION": .tokenRejected,
        "JWT_AUTH": .tokenRejected,
        "ACCOUNT_ID": .wrongAccount,
        "CLIENT_GEO": .geoRestricted,
        "CLIENT_IP": .ipRestricted,
        "DOMAIN": .domainRestricted,
        "OFFERS": .notEntitled,
        "TAGS": .tagsMismatch,
        "DENIED_BY_STREAM_LIMIT": .streamLimit(renewal: false),
        "DENIED_BY_STREAM_LIMIT_CREATE": .streamLimit(renewal: false),
        "DENIED_BY_STREAM_LIMIT_RENEW": .streamLimit(renewal: true),
        "DENIED_BY_DEVICE_LIMITING": .deviceLimit,
        "PLAYBACK_RIGHT_RETRIEVE_FAILURE": .rightsUnavailable,
        "RIGHTS_RETRIEVE_FAILURE": .rightsUnavailable,
        "LICENSE_RETRIEVE_FAILURE": .rightsUnavailable,
        "OFFERS_RETRIEVE_FAILURE": .rightsUnavailable,
    ]

    /// Whether trying again later can succeed without the app changing anything.
    public var isTransient: Bool {
        switch self {
        case .rightsUnavailable, .streamLimit: return true
        default: return false
        }
    }

    /// What to do, in one sentence.
    public var advice: String {
        switch self {
        case .tokenRequired: return "This content needs a Playback Rights token: pass one (PlaybackServiceConfiguration(authToken:), --auth-token)."
        case .tokenRejected:
            return "The auth token was rejected: get a fresh Playback Rights token, signed with the key registered for this account and not expired."
        case .wrongAccount: return "The token or key belongs to another account: use one issued for this account."
        case .geoRestricted: return "This content is geo-restricted: it is not available in the viewer's country."
        case .ipRestricted: return "This content is not available from the viewer's network address."
        case .domainRestricted: return "This content is restricted to other domains."
        case .notEntitled: return "The viewer's entitlement does not include this content."
        case .tagsMismatch: return "The token's tags do not allow this content."
        case .streamLimit(let renewal):
            return renewal
                ? "The viewer started streams elsewhere beyond the token's limit, and this one was stopped: stop another stream and play again."
                : "The viewer already watches as many streams as the token allows (climit): stop another stream first."
        case .deviceLimit: return "The viewer uses as many devices as allowed: remove a device from the account first."
        case .rightsUnavailable: return "The rights service could not decide; retry later."
        }
    }

    public var description: String {
        switch self {
        case .tokenRequired: return "tokenRequired"
        case .tokenRejected: return "tokenRejected"
        case .wrongAccount: return "wrongAccount"
        case .geoRestricted: return "geoRestricted"
        case .ipRestricted: return "ipRestricted"
        case .domainRestricted: return "domainRestricted"
        case .notEntitled: return "notEntitled"
        case .tagsMismatch: return "tagsMismatch"
        case .streamLimit(let renewal): return renewal ? "streamLimit(renewal)" : "streamLimit"
        case .deviceLimit: return "deviceLimit"
        case .rightsUnavailable: return "rightsUnavailable"
        }
    }
}
