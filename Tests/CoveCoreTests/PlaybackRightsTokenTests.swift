import CoveCore
import Foundation
import Testing

/// Reading Playback Rights tokens without trusting them: the claims Cove uses, and a clear typed error —
/// never a crash, a hang or the token itself in the text — for everything that is not a usable token.
@Suite("Playback Rights tokens")
struct PlaybackRightsTokenTests {
    static func part(_ json: String) -> String {
        Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
            of: "=", with: "")
    }

    static func token(header: String = #"{"alg":"HS256","typ":"JWT"}"#, claims: String, signature: String = "c2lnbmF0dXJlLWJ5dGVz") -> String {
        "\(part(header)).\(part(claims)).\(signature)"
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theDocumentedClaimsAreRead() throws {
        let text = Self.token(
            claims:
                #"{"accid":"6000000000001","exp":1800000600,"nbf":1799999000,"iat":1799999000,"uid":"viewer-7","climit":2,"cbeh":"BLOCK_NEW","sid":"living-room","dlimit":3,"conid":"6000000000101","prid":"restriction-1","tags":["gold"]}"#
        )
        let token = try PlaybackRightsToken.parse("Bearer  \(text)\n")
        #expect(token.compact == text)
        #expect(token.algorithm == "HS256")
        let claims = token.claims
        #expect(claims.accountID == "6000000000001")
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_800_000_600))
        #expect(claims.notBefore == Date(timeIntervalSince1970: 1_799_999_000))
        #expect(claims.userID == "viewer-7")
        #expect(claims.concurrencyLimit == 2)
        #expect(claims.concurrencyBehaviour == "BLOCK_NEW")
        #expect(claims.sessionID == "living-room")
        #expect(claims.deviceLimit == 3)
        #expect(claims.contentID == "6000000000101")
        #expect(claims.all["prid"] == "restriction-1")
        #expect(claims.all["tags"] == ["gold"])
        try token.check(at: Self.now)
    }

    /// Numeric account and viewer IDs (as some issuers write them) read as their digits.
    @Test func numericIdentifiersAreReadAsText() throws {
        let token = try PlaybackRightsToken.parse(Self.token(claims: #"{"accid":6000000000001,"uid":42,"climit":"3"}"#))
        #expect(token.claims.accountID == "6000000000001")
        #expect(token.claims.userID == "42")
        #expect(token.claims.concurrencyLimit == 3)
    }

    @Test func anExpiredOrNotYetValidTokenIsTypedWithItsTime() throws {
        let expired = try PlaybackRightsToken.parse(Self.token(claims: #"{"accid":"1","exp":1799999999}"#))
        #expect(throws: PlaybackRightsTokenError.expired(at: Date(timeIntervalSince1970: 1_799_999_999))) { try expired.check(at: Self.now) }
        // Exactly at exp is expired; a leeway for clock skew lets it through.
        let atExpiry = try PlaybackRightsToken.parse(Self.token(claims: #"{"accid":"1","exp":1800000000}"#))
        #expect(throws: PlaybackRightsTokenError.self) { try atExpiry.check(at: Self.now) }
        try atExpiry.check(at: Self.now, leeway: 30)
        let early = try PlaybackRightsToken.parse(Self.token(claims: #"{"accid":"1","nbf":1800000100}"#))
        #expect(throws: PlaybackRightsTokenError.notYetValid(from: Date(timeIntervalSince1970: 1_800_000_100))) { try early.check(at: Self.now) }
        let described = PlaybackRightsTokenError.expired(at: Date(timeIntervalSince1970: 1_799_999_999)).description
        #expect(described.contains("expired at 2027-01-15T07:59:59Z"), "\(described)")
        #expect(described.contains("get a new one"))
    }

    /// Hostile and broken tokens: each a typed error naming what is wrong, none quoting the token.
    @Test(arguments: [
        ("", "empty"),
        ("   ", "empty"),
        ("not-a-jwt", "three dot-separated parts"),
        ("a.b", "has 2"),
        ("a.b.c.d", "has 4"),
        ("!!!.e30.c2ln", "header part is not base64url"),
        ("\(part(#"{"alg":"HS256"}"#)).!!!.c2ln", "claims part is not base64url"),
        ("\(part("not json")).\(part("{}")).c2ln", "header part is not JSON"),
        ("\(part("[1,2]")).\(part("{}")).c2ln", "header part is not a JSON object"),
        ("\(part(#"{"alg":"HS256"}"#)).\(part("[]")).c2ln", "claims part is not a JSON object"),
        ("\(part(#"{"typ":"JWT"}"#)).\(part("{}")).c2ln", "no signing algorithm"),
        ("\(part(#"{"alg":"HS256"}"#)).\(part(#"{"exp":"tomorrow"}"#)).c2ln", "exp must be a time"),
        ("\(part(#"{"alg":"HS256"}"#)).\(part(#"{"exp":1e300}"#)).c2ln", "exp must be a time"),
        ("\(part(#"{"alg":"HS256"}"#)).\(part(#"{"climit":"many"}"#)).c2ln", "climit must be a whole number"),
        ("\(part(#"{"alg":"HS256"}"#)).\(part(#"{"climit":0}"#)).c2ln", "climit must be at least 1"),
        ("\(part(#"{"alg":"HS256"}"#)).\(part(#"{"uid":{"name":"x"}}"#)).c2ln", "uid must be a string"),
        ("\(part(#"{"alg":"HS256"}"#)).\(part(String(repeating: "[", count: 40) + String(repeating: "]", count: 40))).c2ln", "claims part is not JSON"),
        ("\(part(#"{"alg":"HS256"}"#)).\(part("{}")).!!", "signature is not base64url"),
    ])
    func aBrokenTokenIsMalformedAndSaysWhy(text: String, reason: String) {
        do {
            _ = try PlaybackRightsToken.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            guard case .malformed(let why) = error else {
                Issue.record("\(error) is not malformed")
                return
            }
            #expect(why.contains(reason), "\(why)")
            if text.count > 3 { #expect(!error.description.contains(text.trimmingCharacters(in: .whitespaces))) }
        }
    }

    @Test func anUnsignedTokenIsRefused() {
        #expect(throws: PlaybackRightsTokenError.unsigned) { try PlaybackRightsToken.parse(Self.token(header: #"{"alg":"none"}"#, claims: "{}")) }
        #expect(throws: PlaybackRightsTokenError.unsigned) { try PlaybackRightsToken.parse(Self.token(header: #"{"alg":"NONE"}"#, claims: "{}")) }
        #expect(throws: PlaybackRightsTokenError.unsigned) { try PlaybackRightsToken.parse(Self.token(claims: "{}", signature: "")) }
    }

    /// A megabyte token is refused by its length at once, before any decoding.
    @Test func aHugeTokenIsRefusedByItsLength() {
        let huge = Self.token(claims: #"{"pad":""# + String(repeating: "x", count: 1 << 20) + #""}"#)
        let started = ContinuousClock.now
        #expect {
            try PlaybackRightsToken.parse(huge)
        } throws: { error in
            guard case PlaybackRightsTokenError.malformed(let why) = error else { return false }
            return why.contains("at most \(PlaybackRightsToken.maxLength)")
        }
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    /// Descriptions, dumps and errors show the claims Cove uses, never the token or the viewer.
    @Test func theTokenNeverAppearsInText() throws {
        let text = Self.token(claims: #"{"accid":"6000000000001","uid":"viewer@example.com","climit":1}"#)
        let token = try PlaybackRightsToken.parse(text)
        var dumped = ""
        dump(token, to: &dumped)
        for shown in ["\(token)", String(reflecting: token), dumped, "\(token.claims)"] {
            #expect(!shown.contains(text))
            #expect(!shown.contains(text.split(separator: ".")[1]))
            #expect(!shown.contains("viewer@example.com"))
        }
        #expect("\(token)".contains("climit: 1"))
        #expect(Redaction.redactSecrets(in: "sent \(text)") == "sent \(Redaction.placeholder)")
    }

    @Test func everyDocumentedRightsErrorCodeHasItsDenialAndAdvice() {
        let expected: [(String, String?, PlaybackRightsDenial)] = [
            ("ACCESS_DENIED", "TOKEN_REQUIRED", .tokenRequired),
            ("ACCESS_DENIED", "TOKEN_VALIDATION", .tokenRejected),
            ("JWT_AUTH", nil, .tokenRejected),
            ("ACCESS_DENIED", "ACCOUNT_ID", .wrongAccount),
            ("ACCESS_DENIED", "CLIENT_GEO", .geoRestricted),
            ("ACCESS_DENIED", "CLIENT_IP", .ipRestricted),
            ("ACCESS_DENIED", "DOMAIN", .domainRestricted),
            ("ACCESS_DENIED", "OFFERS", .notEntitled),
            ("ACCESS_DENIED", "TAGS", .tagsMismatch),
            ("ACCESS_DENIED", "DENIED_BY_STREAM_LIMIT", .streamLimit(renewal: false)),
            ("ACCESS_DENIED", "DENIED_BY_STREAM_LIMIT_CREATE", .streamLimit(renewal: false)),
            ("ACCESS_DENIED", "DENIED_BY_STREAM_LIMIT_RENEW", .streamLimit(renewal: true)),
            ("ACCESS_DENIED", "DENIED_BY_DEVICE_LIMITING", .deviceLimit),
            ("SERVER_ERROR", "PLAYBACK_RIGHT_RETRIEVE_FAILURE", .rightsUnavailable),
            ("RIGHTS_RETRIEVE_FAILURE", nil, .rightsUnavailable),
            ("LICENSE_RETRIEVE_FAILURE", nil, .rightsUnavailable),
            ("OFFERS_RETRIEVE_FAILURE", nil, .rightsUnavailable),
        ]
        for (code, subcode, denial) in expected {
            #expect(PlaybackRightsDenial(code: code, subcode: subcode) == denial, "\(code)/\(subcode ?? "-")")
            #expect(denial.advice.count > 20)
        }
        #expect(Set(expected.map(\.2.advice)).count == expected.map(\.2).reduce(into: Set<PlaybackRightsDenial>()) { $0.insert($1) }.count)
        #expect(PlaybackRightsDenial(code: "VIDEO_NOT_FOUND", subcode: nil) == nil)
        #expect(PlaybackRightsDenial(code: "ACCESS_DENIED", subcode: "AD_CONFIG") == nil)
        #expect(PlaybackRightsDenial.streamLimit(renewal: true).isTransient)
        #expect(!PlaybackRightsDenial.geoRestricted.isTransient)
    }
}
