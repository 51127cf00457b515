import CoveCore
import Crypto
import Foundation
import _CryptoExtras

/// The four Common Encryption schemes (ISO/IEC 23001-7) over one sample, in place, with a 16-byte key.
///
/// - `cenc`: AES-CTR over the protected bytes of all subsamples as one stream (the counter runs on
///   across subsamples), the 8-byte IV the counter block's high half.
/// - `cens`: the same, over the pattern's encrypted blocks only.
/// - `cbcs`: AES-CBC over the pattern's encrypted blocks of each subsample, the chain starting again from
///   the IV at every subsample; a partial block at the end of a subsample is clear (as Chromium's and
///   Shaka packager's cbcs).
/// - `cbc1`: AES-CBC over the whole blocks of the protected bytes, one chain for the sample.
///
/// Encryption is the same walk (the test kit packages fixtures with it). Each walk gathers the bytes a
/// cipher call covers, so a sample costs one or a few calls, not one per block.
public enum SampleCipher {
    public static func decrypt(_ sample: EncryptedSample, key: [UInt8], in bytes: UnsafeMutableRawBufferPointer) throws(DecryptionError) {
        try apply(sample, key: key, to: bytes, encrypting: false)
    }

    public static func encrypt(_ sample: EncryptedSample, key: [UInt8], in bytes: UnsafeMutableRawBufferPointer) throws(DecryptionError) {
        try apply(sample, key: key, to: bytes, encrypting: true)
    }

    static func apply(_ sample: EncryptedSample, key: [UInt8], to bytes: UnsafeMutableRawBufferPointer, encrypting: Bool) throws(DecryptionError) {
        guard key.count == 16 else { throw DecryptionError(.invalidSample, keyID: sample.keyID, "the key is \(key.count) bytes, not 16") }
        guard sample.iv.count == 8 || sample.iv.count == 16 else {
            throw DecryptionError(.invalidSample, keyID: sample.keyID, "the IV is \(sample.iv.count) bytes")
        }
        // The protected byte ranges, per subsample.
        var protectedRanges: [Range<Int>] = []
        if sample.subsamples.isEmpty {
            protectedRanges = [0..<bytes.count]
        } else {
            var at = 0
            for subsample in sample.subsamples {
                at += subsample.clearBytes
                guard subsample.protectedBytes <= bytes.count - min(at, bytes.count), at <= bytes.count else {
                    throw DecryptionError(.invalidSample, keyID: sample.keyID, "its subsamples cover more than the sample's \(bytes.count) bytes")
                }
                protectedRanges.append(at..<(at + subsample.protectedBytes))
                at += subsample.protectedBytes
            }
        }
        let symmetric = SymmetricKey(data: key)
        let iv16 = sample.iv.count == 16 ? sample.iv : sample.iv + [UInt8](repeating: 0, count: 8)
        let patterned = sample.cryptByteBlock > 0 || sample.skipByteBlock > 0
        do {
            switch sample.scheme {
            case .cenc, .cens:
                let ranges = sample.scheme == .cens && patterned ? protectedRanges.flatMap { patternBlocks($0, sample) } : protectedRanges
                try transform(bytes, ranges) { input in try AES._CTR.encrypt(input, using: symmetric, nonce: AES._CTR.Nonce(nonceBytes: iv16)) }
            case .cbcs:
                for range in protectedRanges {
                    let blocks = patterned ? patternBlocks(range, sample) : [range.lowerBound..<(range.lowerBound + range.count / 16 * 16)]
                    try cbc(bytes, blocks, key: symmetric, iv: iv16, encrypting: encrypting)
                }
            case .cbc1:
                let blocks = protectedRanges.map { $0.lowerBound..<($0.lowerBound + $0.count / 16 * 16) }
                try cbc(bytes, blocks, key: symmetric, iv: iv16, encrypting: encrypting)
            }
        } catch let error as DecryptionError {
            throw error
        } catch {
            throw DecryptionError(.invalidSample, keyID: sample.keyID, "the cipher refused the sample: \(error)")
        }
    }

    /// The whole 16-byte blocks of `range` the pattern encrypts (crypt blocks, then skip blocks, repeating).
    static func patternBlocks(_ range: Range<Int>, _ sample: EncryptedSample) -> [Range<Int>] {
        let crypt = max(sample.cryptByteBlock, 1) * 16
        let skip = sample.skipByteBlock * 16
        var result: [Range<Int>] = []
        var at = range.lowerBound
        while range.upperBound - at >= 16 {
            let length = min(crypt, (range.upperBound - at) / 16 * 16)
            result.append(at..<(at + length))
            at += length + skip
        }
        return result
    }

    private static func cbc(_ bytes: UnsafeMutableRawBufferPointer, _ ranges: [Range<Int>], key: SymmetricKey, iv: [UInt8], encrypting: Bool) throws {
        let ivValue = try AES._CBC.IV(ivBytes: iv)
        try transform(bytes, ranges) { input in
            encrypting
                ? try AES._CBC.encrypt(input, using: key, iv: ivValue, noPadding: true)
                : try AES._CBC.decrypt(input, using: key, iv: ivValue, noPadding: true)
        }
    }

    /// Gathers `ranges` into one buffer, runs `cipher` over it and scatters the result back.
    private static func transform(_ bytes: UnsafeMutableRawBufferPointer, _ ranges: [Range<Int>], _ cipher: (Data) throws -> Data) throws {
        let total = ranges.reduce(0) { $0 + $1.count }
        guard total > 0 else { return }
        var gathered = Data(capacity: total)
        for range in ranges where !range.isEmpty { gathered.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range])) }
        let output = try cipher(gathered)
        guard output.count == total else { throw DecryptionError(.internalError, "the cipher returned \(output.count) bytes for \(total)") }
        output.withUnsafeBytes { out in
            var at = 0
            for range in ranges where !range.isEmpty {
                UnsafeMutableRawBufferPointer(rebasing: bytes[range]).copyMemory(from: UnsafeRawBufferPointer(rebasing: out[at..<(at + range.count)]))
                at += range.count
            }
        }
    }
}
