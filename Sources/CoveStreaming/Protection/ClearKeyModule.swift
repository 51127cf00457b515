import CoveCore
import Foundation
import Synchronization

/// W3C ClearKey (`org.w3.clearkey`), the reference key system Shaka, dash.js and Media3 ship: keys in the
/// clear, from the app (`keys`, as Shaka's `clearKeys` and `cove play --clearkey`) or from a licence
/// server speaking ClearKey's JSON exchange (EME §9.1.3–9.1.4):
///
///     request  {"kids": ["<base64url KID>", …], "type": "temporary"}
///     response {"keys": [{"kty": "oct", "kid": "<base64url>", "k": "<base64url key>"}, …]}
///
/// Keys never appear in logs, errors or `description`.
public struct ClearKeyModule: ContentDecryptionModule, CustomStringConvertible {
    public let name = "ClearKey"
    public let keySystems: [KeySystem] = [.clearKey]
    /// Keys the app gives up front: content whose key IDs are all here needs no licence request.
    let keys: [KeyID: [UInt8]]
    /// Where licence requests go when neither the source nor the app names a URL.
    let licenseURL: URL?

    public init(keys: [KeyID: [UInt8]] = [:], licenseURL: URL? = nil) {
        self.keys = keys.filter { $0.value.count == 16 }
        self.licenseURL = licenseURL
    }

    /// `KID:KEY` pairs of 32 hex digits each (`cove play --clearkey`). Throws naming the bad pair (never the key).
    public static func keys(fromPairs pairs: [String]) throws(DecryptionError) -> [KeyID: [UInt8]] {
        var result: [KeyID: [UInt8]] = [:]
        for (index, pair) in pairs.enumerated() {
            let parts = pair.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let kid = KeyID(hex: parts[0]) else {
                throw DecryptionError(.invalidLicense, "clear key \(index + 1) is not KID:KEY with a 32-digit hex key ID")
            }
            guard let key = HexBytes.decode(parts[1]), key.count == 16 else {
                throw DecryptionError(.invalidLicense, keyID: kid, "the clear key for \(kid) is not 32 hex digits (a 16-byte AES key)")
            }
            result[kid] = key
        }
        return result
    }

    public var description: String { "ClearKey (\(keys.count) keys given\(licenseURL.map { ", licence server \(Redaction.redact(url: $0))" } ?? ""))" }

    public func makeSession(
        keySystem: KeySystem, kind: DecryptionSessionKind, configuration: KeySystemConfiguration
    ) throws(DecryptionError)
        -> any DecryptionSession
    {
        guard keySystem == .clearKey else { throw DecryptionError(.unsupported, "the ClearKey module does not serve \(keySystem)") }
        return ClearKeySession(kind: kind, keys: keys, licenseURL: configuration.licenseURL ?? licenseURL)
    }
}

/// One ClearKey session: the keys it holds and their statuses.
final class ClearKeySession: DecryptionSession, Sendable {
    let kind: DecryptionSessionKind
    let licenseURL: URL?
    private let state: Mutex<(keys: [KeyID: [UInt8]], pending: [KeyID])>

    init(kind: DecryptionSessionKind, keys: [KeyID: [UInt8]], licenseURL: URL?) {
        self.kind = kind
        self.licenseURL = licenseURL
        state = Mutex((keys, []))
    }

    func generateRequest(_ initData: DecryptionInitData) async throws(DecryptionError) -> LicenseMessage? {
        let missing = state.withLock { s in initData.keyIDs.filter { s.keys[$0] == nil } }
        guard !missing.isEmpty else { return nil }
        state.withLock { $0.pending = missing }
        let body: JSONValue = ["kids": .array(missing.map { .string($0.base64URL) }), "type": .string(kind.rawValue)]
        return LicenseMessage(body: Data(body.serialized().utf8), url: licenseURL, headers: ["Content-Type": "application/json"])
    }

    func update(_ response: Data) async throws(DecryptionError) -> [KeyID: KeyStatus] {
        let parsed = try Self.parseKeys(response)
        return state.withLock { s in
            s.keys.merge(parsed) { _, new in new }
            return Dictionary(uniqueKeysWithValues: s.keys.keys.map { ($0, KeyStatus.usable) })
        }
    }

    /// A JWK set's `oct` keys. Throws without quoting the body (it holds keys).
    static func parseKeys(_ body: Data) throws(DecryptionError) -> [KeyID: [UInt8]] {
        let json: JSONValue
        do {
            json = try JSONValue.parse(body, limits: JSONLimits(maxBytes: 1 << 20, maxDepth: 8))
        } catch {
            throw DecryptionError(.invalidLicense, "the ClearKey licence is not JSON (\(body.count) bytes)")
        }
        guard let list = json["keys"]?.arrayValue else { throw DecryptionError(.invalidLicense, "the ClearKey licence has no \"keys\" array") }
        var result: [KeyID: [UInt8]] = [:]
        for (index, entry) in list.enumerated() {
            guard entry["kty"]?.stringValue == "oct", let kid = entry["kid"]?.stringValue.flatMap(KeyID.init(base64URL:)) else {
                throw DecryptionError(.invalidLicense, "key \(index + 1) of the ClearKey licence is not an \"oct\" key with a 16-byte \"kid\"")
            }
            guard let key = entry["k"]?.stringValue.flatMap(HexBytes.base64URLDecode), key.count == 16 else {
                throw DecryptionError(.invalidLicense, keyID: kid, "the ClearKey licence's key for \(kid) is not 16 bytes of base64url")
            }
            result[kid] = key
        }
        return result
    }

    var keyStatuses: [KeyID: KeyStatus] {
        state.withLock { s in Dictionary(uniqueKeysWithValues: s.keys.keys.map { ($0, KeyStatus.usable) }) }
    }

    func decrypt(_ sample: EncryptedSample, in bytes: UnsafeMutableRawBufferPointer) throws(DecryptionError) {
        guard let key = state.withLock({ $0.keys[sample.keyID] }) else {
            throw DecryptionError(.keyMissing, keyID: sample.keyID, "no key for \(sample.keyID): the licence did not carry it")
        }
        try SampleCipher.decrypt(sample, key: key, in: bytes)
    }

    func persistentLicense() -> Data? {
        let keys = state.withLock { $0.keys }
        guard !keys.isEmpty else { return nil }
        let list = keys.sorted { $0.key < $1.key }.map { kid, key -> JSONValue in
            ["kty": "oct", "kid": .string(kid.base64URL), "k": .string(HexBytes.base64URLEncode(key))]
        }
        let body: JSONValue = ["keys": .array(list), "type": .string(DecryptionSessionKind.persistentLicense.rawValue)]
        return Data(body.serialized().utf8)
    }

    func load(persistentLicense: Data) throws(DecryptionError) -> [KeyID: KeyStatus] {
        let parsed = try Self.parseKeys(persistentLicense)
        return state.withLock { s in
            s.keys.merge(parsed) { _, new in new }
            return Dictionary(uniqueKeysWithValues: s.keys.keys.map { ($0, KeyStatus.usable) })
        }
    }

    func close() {
        state.withLock { $0.keys.removeAll() }
    }
}
