import Foundation
import JWTKit

/// Signs and checks Playback Rights tokens (HS256 JWTs) for the rights-checking catalog stand-in, as a
/// publisher's entitlement service and Brightcove's rights service would (those use RS256 with the
/// publisher's key pair; a shared secret keeps the test kit free of key files).
public struct PlaybackRightsSigner: Sendable {
    /// The claims the stand-in reads and enforces (Brightcove's documented names).
    public struct Claims: JWTPayload, Equatable {
        public var accid: String?
        public var exp: ExpirationClaim?
        public var nbf: NotBeforeClaim?
        public var iat: IssuedAtClaim?
        public var uid: String?
        public var climit: Int?
        public var cbeh: String?
        public var sid: String?
        public var conid: String?

        public init(
            accid: String?, exp: Date? = nil, nbf: Date? = nil, iat: Date? = nil, uid: String? = nil, climit: Int? = nil, cbeh: String? = nil,
            sid: String? = nil, conid: String? = nil
        ) {
            self.accid = accid
            self.exp = exp.map(ExpirationClaim.init(value:))
            self.nbf = nbf.map(NotBeforeClaim.init(value:))
            self.iat = iat.map(IssuedAtClaim.init(value:))
            self.uid = uid
            self.climit = climit
            self.cbeh = cbeh
            self.sid = sid
            self.conid = conid
        }

        /// Expiry and not-before, as the rights service checks them.
        public func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp?.verifyNotExpired()
            try nbf?.verifyNotBefore()
        }
    }

    public let secret: String

    public init(secret: String) {
        self.secret = secret
    }

    /// HS256 needs a key at least as long as its digest (JWTKit asserts it).
    public static let minimumSecretBytes = 32

    private func keys() async throws -> JWTKeyCollection {
        guard secret.utf8.count >= Self.minimumSecretBytes else {
            throw FixtureError(
                description: "a Playback Rights secret needs at least \(Self.minimumSecretBytes) bytes for HS256; this one has \(secret.utf8.count)")
        }
        return await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
    }

    /// A signed token carrying `claims`.
    public func sign(_ claims: Claims) async throws -> String {
        try await keys().sign(claims)
    }

    /// A token for `account`, valid for `lifetime` from now, with the viewer and concurrency claims given.
    public func token(
        account: String, lifetime: TimeInterval = 3600, userID: String? = nil, concurrencyLimit: Int? = nil, sessionID: String? = nil, contentID: String? = nil
    ) async throws -> String {
        let now = Date()
        return try await sign(
            Claims(accid: account, exp: now.addingTimeInterval(lifetime), iat: now, uid: userID, climit: concurrencyLimit, sid: sessionID, conid: contentID))
    }

    /// The claims of a token whose signature, expiry and not-before hold; throws otherwise.
    public func verify(_ token: String) async throws -> Claims {
        try await keys().verify(token, as: Claims.self)
    }
}
