import Crypto
import Foundation
import _CryptoExtras

/// HLS `METHOD=AES-128` (RFC 8216 §4.3.2.4, §5.2): a whole resource (segment or init section)
/// encrypted with AES-128-CBC and PKCS#7 padding. Pure: key bytes, IV and ciphertext in, plaintext out.
public enum SegmentDecryptor {
    /// Why decryption failed. Never carries key or media bytes (only lengths).
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The key is not 16 bytes (an AES-128 key is).
        case keyLength(Int)
        /// The IV is longer than 16 bytes.
        case ivLength(Int)
        /// The ciphertext is empty or not a whole number of 16-byte blocks.
        case notWholeBlocks(Int)
        /// The last block's PKCS#7 padding is wrong: the key or IV does not match the data.
        case badPadding

        public var description: String {
            switch self {
            case .keyLength(let count): return "the key is \(count) bytes, not the 16 bytes of an AES-128 key"
            case .ivLength(let count): return "the IV is \(count) bytes, not 16"
            case .notWholeBlocks(let count): return "the encrypted data is \(count) bytes, not a whole number of 16-byte blocks"
            case .badPadding: return "the decrypted data has no valid PKCS#7 padding (the key or IV does not match the data)"
            }
        }
    }

    public static let keyLength = 16
    public static let blockLength = 16

    /// Whether Cove decrypts `key` itself: AES-128 with the identity key format. Anything else
    /// (SAMPLE-AES, SAMPLE-AES-CTR, a DRM's key format) needs a DRM Cove does not have.
    public static func canDecrypt(_ key: SegmentKey) -> Bool {
        key.method == .aes128 && key.keyFormat == "identity"
    }

    /// The IV for a resource: the tag's IV (a shorter value is a big-endian number, left-padded with
    /// zeros), else `sequence` (the media sequence number) as a 16-byte big-endian value.
    public static func iv(explicit: [UInt8]?, sequence: Int) throws(Failure) -> [UInt8] {
        if let explicit {
            guard explicit.count <= blockLength else { throw .ivLength(explicit.count) }
            return [UInt8](repeating: 0, count: blockLength - explicit.count) + explicit
        }
        let value = UInt64(clamping: sequence)
        return [UInt8](repeating: 0, count: 8) + (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }

    /// Decrypts AES-128-CBC `ciphertext` and removes its PKCS#7 padding.
    public static func decrypt(_ ciphertext: Data, key: [UInt8], iv: [UInt8]) throws(Failure) -> Data {
        guard key.count == keyLength else { throw .keyLength(key.count) }
        guard iv.count == blockLength else { throw .ivLength(iv.count) }
        guard !ciphertext.isEmpty, ciphertext.count % blockLength == 0 else { throw .notWholeBlocks(ciphertext.count) }
        do {
            return try AES._CBC.decrypt(ciphertext, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: iv))
        } catch {
            // Lengths were checked above: what is left is the padding.
            throw .badPadding
        }
    }
}
