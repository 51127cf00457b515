import CoveCore
import Foundation

/// Common Encryption in a session: an init segment's protection read (and the init made clear), its keys
/// obtained from the module of a key system the content offers, then every fragment of the variant
/// decrypted before it is pushed. Decrypted bytes go only to the engine's input.
extension StreamingSession {
    /// The init segment as the demuxer must see it: unchanged when clear, else with its encryption boxes
    /// turned into padding once the keys for it are held.
    func prepareProtection(_ initBody: Data, variant: Int, segment: SegmentReference, presentation: Presentation, url: URL) async throws(StreamingError) -> Data
    {
        let content: ProtectedInitSegment?
        do {
            content = try ProtectedInitSegment.read(initBody)
        } catch {
            throw StreamingError(.corruptMedia, "The init segment's encryption boxes are malformed: \(error)", url: url)
        }
        guard let content else {
            state.withLock { _ = $0.protections.removeValue(forKey: variant) }
            return initBody
        }
        let session = try await decryptionSession(for: content, segment: segment, presentation: presentation, url: url)
        state.withLock { $0.protections[variant] = (content, session) }
        return content.clear
    }

    /// The session for `content`: an HLS identity key (`SAMPLE-AES` with the key at its URI) as a ClearKey
    /// session, else the broker's for the key systems the content offers.
    func decryptionSession(
        for content: ProtectedInitSegment, segment: SegmentReference, presentation: Presentation, url: URL
    ) async throws(StreamingError) -> any DecryptionSession {
        if let key = segment.key, key.method == .sampleAES || key.method == .sampleAESCTR, key.keyFormat == "identity" {
            guard let keyURL = key.keyURL else {
                throw StreamingError(
                    .invalidManifest, "An EXT-X-KEY with METHOD=\(key.method.rawValue) has no usable URI; the playlist must name the key", url: url)
            }
            let bytes = try await keys.keyBytes(at: keyURL)
            guard bytes.count == 16 else {
                throw StreamingError(.decryptionFailed, "The key at \(Redaction.redact(url: keyURL)) is \(bytes.count) bytes, not a 16-byte AES key", url: url)
            }
            return protection.identitySession(key: bytes, for: content)
        }
        return try await protection.session(
            for: content, offered: offered(for: content, segment: segment, presentation: presentation), loader: loader, url: url)
    }

    func offered(for content: ProtectedInitSegment, segment: SegmentReference, presentation: Presentation) -> [OfferedKeySystem] {
        protection.offered(for: content, segmentKey: segment.key, declared: presentation.contentProtection)
    }

    /// The fragment with its samples decrypted, when its variant's init segment was protected. A key the
    /// session lacks (key rotation to a key ID the init segment did not name) is asked for once.
    func decryptSamples(_ body: Data, variant: Int, segment: SegmentReference, presentation: Presentation, url: URL) async throws(StreamingError) -> Data {
        guard let (content, initialSession) = state.withLock({ $0.protections[variant] }) else { return body }
        var session = initialSession
        var askedFor = Set<KeyID>()
        while true {
            var copy = body
            do {
                try FragmentDecryptor.decrypt(&copy, protection: content) { sample, bytes throws(DecryptionError) in try session.decrypt(sample, in: bytes) }
                return copy
            } catch {
                if case .decryption(let failure) = error, failure.kind == .keyMissing, let kid = failure.keyID, !askedFor.contains(kid) {
                    askedFor.insert(kid)
                    let rotated = content.adding(keyIDs: [kid])
                    session = try await decryptionSession(for: rotated, segment: segment, presentation: presentation, url: url)
                    continue
                }
                switch error {
                case .malformed(let parse):
                    throw StreamingError(.corruptMedia, "The segment's encryption boxes are malformed: \(parse)", url: url)
                case .decryption(let failure):
                    throw StreamingError(.decryptionFailed, "Could not decrypt the segment \(Redaction.redact(url: url)): \(failure)", url: url)
                case .wrongKey(let kid, let track):
                    throw StreamingError(
                        .decryptionFailed,
                        "The key for \(kid.hex) does not decrypt the segment \(Redaction.redact(url: url)) (track \(track)'s samples do not parse after decryption): "
                            + "the licence or the app gave a wrong key for this key ID",
                        url: url)
                }
            }
        }
    }
}

extension ProtectionSystemHeader {
    /// A `pssh` box from a base64 `data:` URL (an HLS `EXT-X-KEY` URI for a DRM key format).
    init?(dataURL url: URL) {
        let text = url.absoluteString
        guard text.hasPrefix("data:"), let comma = text.firstIndex(of: ","), text[..<comma].hasSuffix(";base64") else { return nil }
        guard let data = Data(base64Encoded: String(text[text.index(after: comma)...]).removingPercentEncoding ?? ""), data.count <= 64 << 10 else {
            return nil
        }
        self.init(box: [UInt8](data))
    }

    /// A `pssh` box's bytes (a DASH `cenc:pssh` element, decoded): nil unless they hold one well-formed box
    /// of at most 64 KiB.
    init?(box bytes: [UInt8]) {
        guard bytes.count <= 64 << 10 else { return nil }
        guard
            let header = try? bytes.withUnsafeBytes({ raw throws(CENCParseError) -> ProtectionSystemHeader? in
                guard let box = try BoxReader.boxes(raw, in: 0..<raw.count).first, box.type == "pssh" else { return nil }
                return try ProtectedInitSegment.readSystemHeader(raw, box)
            })
        else { return nil }
        self = header
    }
}
