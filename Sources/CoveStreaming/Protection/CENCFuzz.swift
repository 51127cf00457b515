import CoveCore
import Foundation

/// The entry point for fuzzers (libFuzzer, AFL, the mutation tests) of the Common Encryption reader: any
/// bytes, read as an init segment and as a fragment under a fixed protected track, either work or throw a
/// typed error — never trap, hang or touch memory outside the buffer.
package enum CENCFuzz {
    /// A track that protects track 1 with `cenc`, 8-byte IVs, and a session holding its key.
    static let protection = ProtectedInitSegment(
        tracks: [
            1: TrackProtection(
                trackID: 1, scheme: .cenc, originalFormat: "avc1",
                defaults: .init(
                    isProtected: true, perSampleIVSize: 8, keyID: KeyID(hex: "00112233445566778899aabbccddeeff")!, constantIV: nil, cryptByteBlock: 0,
                    skipByteBlock: 0),
                sampleGroups: [], shape: .nalUnits(lengthSize: 4), defaultSampleSize: 0)
        ], systemHeaders: [], clear: Data())

    package static func run(_ bytes: [UInt8]) {
        _ = try? ProtectedInitSegment.read(Data(bytes))
        var fragment = Data(bytes)
        let session = ClearKeySession(kind: .temporary, keys: [protection.keyIDs[0]: [UInt8](repeating: 7, count: 16)], licenseURL: nil)
        _ = try? FragmentDecryptor.decrypt(&fragment, protection: protection) { sample, buffer throws(DecryptionError) in
            try session.decrypt(sample, in: buffer)
        }
        precondition(fragment.count == bytes.count, "decryption changed the fragment's size")
    }
}
