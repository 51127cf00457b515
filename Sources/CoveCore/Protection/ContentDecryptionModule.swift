import Foundation

/// A content decryption module: the seam where a key system plugs in, shaped like EME's
/// `MediaKeys`/`MediaKeySession` and Media3's `ExoMediaDrm`.
///
/// Cove reads the Common Encryption boxes of the media itself and hands the module one encrypted sample
/// at a time (`DecryptionSession.decrypt`); the module owns the keys and the licence protocol. Cove
/// ships ClearKey (`ClearKeyModule`, in `CoveStreaming`); an integrator who holds a vendor's module
/// (Widevine, PlayReady) wraps it in this protocol and registers it in `DecryptionModules`.
///
/// Licence requests and responses are bytes: Cove sends the request through its own HTTP (request
/// filters of kind `.license` add the app's headers or tokens) to the licence URL the module gives, else
/// to the one the source's `key_systems` names.
public protocol ContentDecryptionModule: Sendable {
    /// A name for logs and errors ("ClearKey", "Widevine (vendor)").
    var name: String { get }
    /// The key systems it serves, in the order it prefers them.
    var keySystems: [KeySystem] { get }
    /// A session for one piece of content under `keySystem` (one of `keySystems`).
    func makeSession(
        keySystem: KeySystem, kind: DecryptionSessionKind, configuration: KeySystemConfiguration
    ) throws(DecryptionError)
        -> any DecryptionSession
}

/// How long a session's licence lives: for this playback, or stored with a download.
public enum DecryptionSessionKind: String, Sendable, Hashable {
    /// Forgotten when the session closes (EME `temporary`).
    case temporary
    /// Its licence can be saved (`persistentLicense()`) and loaded again offline (EME `persistent-license`).
    case persistentLicense = "persistent-license"
}

/// What a source says about one of its key systems: the Playback API's `key_systems` entry
/// (`license_url`, `certificate_url`) and anything else the app adds.
public struct KeySystemConfiguration: Sendable, Hashable {
    public var licenseURL: URL?
    public var certificateURL: URL?
    /// The entry's other fields, as the catalog sent them.
    public var properties: JSONObject

    public init(licenseURL: URL? = nil, certificateURL: URL? = nil, properties: JSONObject = [:]) {
        self.licenseURL = licenseURL
        self.certificateURL = certificateURL
        self.properties = properties
    }

    /// The entries of a source's `key_systems` by key system.
    public static func entries(of source: Source) -> [KeySystem: KeySystemConfiguration] {
        var result: [KeySystem: KeySystemConfiguration] = [:]
        for (name, value) in source.keySystems {
            let object = value.objectValue ?? [:]
            result[KeySystem(rawValue: name)] = KeySystemConfiguration(
                licenseURL: object["license_url"]?.stringValue.flatMap(URL.init(string:)),
                certificateURL: object["certificate_url"]?.stringValue.flatMap(URL.init(string:)),
                properties: object
            )
        }
        return result
    }
}

/// What content says about its keys: `pssh` boxes (Common Encryption), or a list of key IDs (a DASH
/// `cenc:default_KID`, an HLS `KEYID`; EME's `keyids` format).
public struct DecryptionInitData: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable {
        /// One or more whole `pssh` boxes.
        case cenc
        /// Key IDs only.
        case keyIDs = "keyids"
    }

    public let format: Format
    /// The `pssh` boxes (format `.cenc`); empty for `.keyIDs`.
    public let data: Data
    /// The key IDs the content needs: those of the boxes for ClearKey's system, else the `tenc` defaults.
    public let keyIDs: [KeyID]

    public init(format: Format, data: Data = Data(), keyIDs: [KeyID]) {
        self.format = format
        self.data = data
        self.keyIDs = keyIDs
    }
}

/// A message a session wants sent to its licence server.
public struct LicenseMessage: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case licenseRequest = "license-request"
        case licenseRenewal = "license-renewal"
        case licenseRelease = "license-release"
    }

    public let kind: Kind
    public let body: Data
    /// Where to send it; nil: the licence URL of the source's `key_systems` entry.
    public let url: URL?
    /// Headers the key system's protocol needs (`Content-Type`); the app's own come from request filters.
    public let headers: HTTPHeaders

    public init(kind: Kind = .licenseRequest, body: Data, url: URL? = nil, headers: HTTPHeaders = HTTPHeaders()) {
        self.kind = kind
        self.body = body
        self.url = url
        self.headers = headers
    }
}

/// Whether a key can be used now (EME's `MediaKeyStatus`).
public enum KeyStatus: String, Sendable, Hashable {
    case usable
    case expired
    case released
    case outputRestricted = "output-restricted"
    case outputDownscaled = "output-downscaled"
    case statusPending = "status-pending"
    case internalError = "internal-error"
}

/// Which Common Encryption scheme a track is under (ISO/IEC 23001-7 `schm`).
public enum EncryptionScheme: String, Sendable, Hashable {
    /// AES-CTR, full sample or subsamples.
    case cenc
    /// AES-CBC with a block pattern (usually 1:9 for video) and a constant IV.
    case cbcs
    /// AES-CTR with a pattern.
    case cens
    /// AES-CBC, full blocks.
    case cbc1
}

/// One encrypted sample as Cove read it from the fragment: which key, the IV, which bytes are clear.
public struct EncryptedSample: Sendable, Hashable {
    /// A run of clear bytes followed by a run of encrypted ones.
    public struct Subsample: Sendable, Hashable {
        public let clearBytes: Int
        public let protectedBytes: Int
        public init(clearBytes: Int, protectedBytes: Int) {
            self.clearBytes = clearBytes
            self.protectedBytes = protectedBytes
        }
    }

    public let scheme: EncryptionScheme
    public let keyID: KeyID
    /// 8 or 16 bytes (a per-sample IV, or the track's constant IV).
    public let iv: [UInt8]
    /// Empty: the whole sample is encrypted.
    public let subsamples: [Subsample]
    /// Encrypted and skipped 16-byte blocks of a pattern scheme (`cbcs`, `cens`); 0:0 means every block.
    public let cryptByteBlock: Int
    public let skipByteBlock: Int

    public init(scheme: EncryptionScheme, keyID: KeyID, iv: [UInt8], subsamples: [Subsample], cryptByteBlock: Int = 0, skipByteBlock: Int = 0) {
        self.scheme = scheme
        self.keyID = keyID
        self.iv = iv
        self.subsamples = subsamples
        self.cryptByteBlock = cryptByteBlock
        self.skipByteBlock = skipByteBlock
    }
}

/// One session of a module: licence exchange, key statuses, decryption. Cove calls `generateRequest` once,
/// sends what it returns and hands back the answer with `update`, then decrypts samples from any thread.
public protocol DecryptionSession: AnyObject, Sendable {
    /// The licence request for `initData`, or nil when the session already holds every key it needs (keys
    /// given to the module up front, a loaded persistent licence).
    func generateRequest(_ initData: DecryptionInitData) async throws(DecryptionError) -> LicenseMessage?
    /// The licence server's answer; returns the key statuses it leads to.
    func update(_ response: Data) async throws(DecryptionError) -> [KeyID: KeyStatus]
    /// The statuses of the keys the session knows.
    var keyStatuses: [KeyID: KeyStatus] { get }
    /// Decrypts `sample` in place. Throws `.keyMissing` for a key it does not hold.
    func decrypt(_ sample: EncryptedSample, in bytes: UnsafeMutableRawBufferPointer) throws(DecryptionError)
    /// The licence to store with a download (a `.persistentLicense` session); nil when there is none.
    func persistentLicense() -> Data?
    /// Restores a stored licence (offline playback): no request is needed after it.
    func load(persistentLicense: Data) throws(DecryptionError) -> [KeyID: KeyStatus]
    /// Forgets the keys.
    func close()
}

/// Why a module or session failed. Never carries key bytes.
public struct DecryptionError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The module holds no key for this key ID (the licence did not carry it).
        case keyMissing
        /// The key's status forbids use (expired, released, output-restricted).
        case keyUnusable
        /// The licence response is not one this module reads.
        case invalidLicense
        /// The sample's layout does not fit its bytes, or the cipher refused it.
        case invalidSample
        /// The module cannot serve this key system or session kind.
        case unsupported
        /// A stored licence has expired.
        case licenseExpired
        /// Anything else inside the module.
        case internalError
    }

    public let kind: Kind
    public let keyID: KeyID?
    public let detail: String

    public init(_ kind: Kind, keyID: KeyID? = nil, _ detail: String) {
        self.kind = kind
        self.keyID = keyID
        self.detail = Redaction.redactSecrets(in: detail)
    }

    public var description: String { keyID.map { "\(kind.rawValue) (key \($0)): \(detail)" } ?? "\(kind.rawValue): \(detail)" }
}

/// The modules an app registers, in order of preference. Streaming asks it for the module of a key
/// system the content names; source selection asks which key systems it covers
/// (`PlaybackCapabilities(keySystems:)`, `SourceSelectionPolicy.capabilities`).
public struct DecryptionModules: Sendable {
    public private(set) var modules: [any ContentDecryptionModule]

    public init(_ modules: [any ContentDecryptionModule] = []) {
        self.modules = modules
    }

    public mutating func register(_ module: any ContentDecryptionModule) {
        modules.append(module)
    }

    /// Every key system some module serves.
    public var keySystems: Set<KeySystem> { Set(modules.flatMap(\.keySystems)) }

    /// The first registered module that serves `keySystem`.
    public func module(for keySystem: KeySystem) -> (any ContentDecryptionModule)? {
        modules.first { $0.keySystems.contains(keySystem) }
    }

    /// Of `offered` (the key systems the content names, in its order), the one to use: the first key
    /// system of the first registered module that serves any of them.
    public func choose(among offered: [KeySystem]) -> (KeySystem, any ContentDecryptionModule)? {
        for module in modules {
            if let system = module.keySystems.first(where: offered.contains) { return (system, module) }
        }
        return nil
    }
}
