import CoveCore
import Foundation
import Logging
import Synchronization

/// HLS decryption keys by key URI, for one session: each fetched once through the session's loader
/// (kind `.key`, so request filters add the app's token), shared by concurrent requests for the same
/// URI and by every variant. Key rotation is a new URI, hence a new fetch. A failed fetch is not kept:
/// the next segment asks again.
///
/// Key bytes are never logged, never in errors and never in a `description`.
public final class KeyCache: Sendable, CustomStringConvertible {
    private let loader: StreamingLoader
    private let logger: Logger
    private let entries = Mutex<[URL: Task<Result<[UInt8], StreamingError>, Never>]>([:])

    /// A key answer is 16 bytes; anything much larger is not a key.
    static let maxKeyBytes = 4096

    public init(loader: StreamingLoader, logger: Logger = Logger(label: "cove.streaming.keys")) {
        self.loader = loader
        self.logger = logger
    }

    public var description: String { "KeyCache(\(entries.withLock { $0.count }) keys)" }

    /// How to decrypt a segment under `key` (nil for a clear segment): fetches the key if it is not
    /// cached. Throws `drmUnsupported` for anything but AES-128 with the identity key format,
    /// `keyAuthorizationFailed` when the key server answers 401/403.
    public func decryption(for key: SegmentKey?, sequence: Int, segmentURL: URL) async throws(StreamingError) -> SegmentDecryption? {
        guard let key else { return nil }
        // Sample encryption of fMP4 (cbcs, cenc) is decrypted per sample from the init segment's boxes.
        if key.method == .sampleAES || key.method == .sampleAESCTR { return nil }
        guard SegmentDecryptor.canDecrypt(key) else { throw StreamingError.drmUnsupported(key, url: segmentURL) }
        guard let keyURL = key.keyURL else {
            throw StreamingError(.invalidManifest, "An EXT-X-KEY with METHOD=AES-128 has no usable URI; the playlist must name the key", url: segmentURL)
        }
        let segmentIV: [UInt8]
        let initIV: [UInt8]
        do {
            segmentIV = try SegmentDecryptor.iv(explicit: key.iv, sequence: sequence)
            // An encrypted EXT-X-MAP must have an explicit IV (RFC 8216 §4.3.2.5); without one, 0 (as hls.js).
            initIV = try SegmentDecryptor.iv(explicit: key.iv, sequence: 0)
        } catch {
            throw StreamingError(.decryptionFailed, "The EXT-X-KEY's IV is unusable: \(error)", url: segmentURL)
        }
        let bytes = try await keyBytes(at: keyURL)
        return SegmentDecryption(key: bytes, segmentIV: segmentIV, initIV: initIV, keyURL: keyURL)
    }

    /// The bytes at `url`: cached, or fetched once however many ask at the same time.
    func keyBytes(at url: URL) async throws(StreamingError) -> [UInt8] {
        let task = entries.withLock { entries in
            if let existing = entries[url] { return existing }
            let loader = self.loader
            let logger = self.logger
            let task = Task { await Self.fetch(url, loader: loader, logger: logger) }
            entries[url] = task
            return task
        }
        let result = await task.value
        if case .failure = result {
            entries.withLock { entries in if entries[url] == task { entries[url] = nil } }
        }
        return try result.get()
    }

    private static func fetch(_ url: URL, loader: StreamingLoader, logger: Logger) async -> Result<[UInt8], StreamingError> {
        do throws(StreamingError) {
            let loaded = try await loader.load(.key, url: url, maxBytes: maxKeyBytes)
            logger.debug("key fetched", metadata: ["url": "\(Redaction.redact(url: url))", "bytes": "\(loaded.body.count)"])
            return .success([UInt8](loaded.body))
        } catch {
            if error.code == .httpStatus, let status = error.httpStatus, status == 401 || status == 403 {
                return .failure(
                    StreamingError(
                        .keyAuthorizationFailed,
                        "The key server refused the decryption key \(Redaction.redact(url: url)) (HTTP \(status)): the key request needs the app's token or a fresh one; "
                            + "a request filter for key requests can add it (RequestFilter.header or .queryItem with kinds: [.key])",
                        url: url, httpStatus: status
                    ))
            }
            return .failure(error)
        }
    }
}

/// How to decrypt one segment and its init section: the AES-128 key and IVs. Its `description` names
/// the key's URL, never its bytes.
public struct SegmentDecryption: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let key: [UInt8]
    let segmentIV: [UInt8]
    let initIV: [UInt8]
    public let keyURL: URL

    public var description: String { "AES-128 (key \(Redaction.redact(url: keyURL)))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["keyURL": Redaction.redact(url: keyURL)]) }

    /// The decrypted segment.
    public func segment(_ loaded: StreamingLoader.Loaded) throws(StreamingError) -> Data {
        try decrypt(loaded, iv: segmentIV, what: "segment")
    }

    /// The decrypted init section (EXT-X-MAP). One that is already media (listed before the EXT-X-KEY,
    /// so clear) is kept as it is: the playlist model does not say which key, if any, the map was under.
    public func initSection(_ loaded: StreamingLoader.Loaded) throws(StreamingError) -> Data {
        if let format = MediaSniffer.segmentFormat(loaded.body), format == .isoBMFF || format == .mpegTS { return loaded.body }
        return try decrypt(loaded, iv: initIV, what: "init section")
    }

    private func decrypt(_ loaded: StreamingLoader.Loaded, iv: [UInt8], what: String) throws(StreamingError) -> Data {
        let plain: Data
        do {
            plain = try SegmentDecryptor.decrypt(loaded.body, key: key, iv: iv)
        } catch {
            // An error page instead of the segment is the server's answer, not a key problem.
            if MediaSniffer.isDocument(MediaSniffer.significantHead(loaded.body), contentType: loaded.contentType) {
                try MediaSniffer.checkSegment(loaded.body, contentType: loaded.contentType, url: loaded.url)
            }
            throw StreamingError(
                .decryptionFailed,
                "Could not decrypt the \(what) \(Redaction.redact(url: loaded.url)) with the AES-128 key \(Redaction.redact(url: keyURL)): \(error); "
                    + "check that the key server answers this stream's 16-byte key",
                url: loaded.url
            )
        }
        // A wrong key (or IV) usually breaks the padding; when the padding happens to read right, the bytes
        // are still no media: the same failure, not a damaged stream.
        guard MediaSniffer.segmentFormat(plain) != nil else {
            throw StreamingError(
                .decryptionFailed,
                "The \(what) \(Redaction.redact(url: loaded.url)) decrypted with the AES-128 key \(Redaction.redact(url: keyURL)) is not media: "
                    + "the key or the IV does not match the stream; check that the key server answers this stream's key",
                url: loaded.url
            )
        }
        return plain
    }

}

extension StreamingError {
    /// A segment key Cove cannot use: SAMPLE-AES, SAMPLE-AES-CTR, another method or a DRM key format.
    static func drmUnsupported(_ key: SegmentKey, url: URL?) -> StreamingError {
        let method = key.method == .other ? "an encryption method other than AES-128 and SAMPLE-AES" : key.method.rawValue
        return StreamingError(
            .drmUnsupported,
            "The stream is encrypted with \(method) (key format \(key.keyFormat)): it needs a DRM key system no registered decryption module serves (Cove decrypts AES-128, and SAMPLE-AES or SAMPLE-AES-CTR "
                + "on fMP4 with the identity key format or the key format of a registered module's key system; SAMPLE-AES on MPEG-TS segments is not supported)",
            url: url
        )
    }
}
