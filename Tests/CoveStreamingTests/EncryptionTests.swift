import CoveCore
import CoveStreaming
import CoveTesting
import Crypto
import Foundation
import Synchronization
import Testing
import _CryptoExtras

// MARK: Fixtures

/// 16 printable bytes, so a test can look for the key as text as well as in hex.
private let secretKey: [UInt8] = Array("K3yB1tsN0tPr1nt!".utf8)
private let rotatedKey: [UInt8] = Array("R0tat3dK3yBytes#".utf8)

private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

private func sequenceIV(_ sequence: Int) -> [UInt8] {
    [UInt8](repeating: 0, count: 8) + (0..<8).map { UInt8(truncatingIfNeeded: UInt64(sequence) >> (56 - 8 * $0)) }
}

/// AES-128-CBC with PKCS#7 padding, by swift-crypto (what a packager does).
private func encrypt(_ plaintext: Data, key: [UInt8], iv: [UInt8]) -> Data {
    // swift-format-ignore
    try! AES._CBC.encrypt(plaintext, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: iv))
}

/// A `Ladder` whose segments are AES-128 encrypted: `keyPath` names the key in force for each media
/// sequence number (a change is a rotation), with the sequence number as IV unless `iv` is given.
struct EncryptedLadder {
    var ladder = Ladder()
    var keys: [String: [UInt8]] = ["/vod/keys/k0.bin": secretKey]
    var keyPath: @Sendable (Int) -> String = { _ in "/vod/keys/k0.bin" }
    var iv: [UInt8]?
    var method = "AES-128"
    var keyFormat: String?
    /// fMP4 only: the EXT-X-MAP comes after the EXT-X-KEY (so the init section is encrypted too).
    var mapUnderKey = true

    func keyTag(_ path: String) -> String {
        var tag = "#EXT-X-KEY:METHOD=\(method),URI=\"..\(path.dropFirst(ladder.root.count))\""
        if let iv { tag += ",IV=0x\(hex(iv))" }
        if let keyFormat { tag += ",KEYFORMAT=\"\(keyFormat)\"" }
        return tag + "\n"
    }

    func mediaPlaylist() -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(Int(ladder.duration.rounded(.up)))\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        var current: String?
        for sequence in 0..<ladder.segments {
            let path = keyPath(sequence)
            if path != current {
                if sequence == 0 && ladder.fmp4 && !mapUnderKey { text += "#EXT-X-MAP:URI=\"init.mp4\"\n" }
                text += keyTag(path)
                if sequence == 0 && ladder.fmp4 && mapUnderKey { text += "#EXT-X-MAP:URI=\"init.mp4\"\n" }
                current = path
            }
            text += "#EXTINF:\(ladder.duration),\n\(ladder.segmentName(sequence))\n"
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    func plaintext(variant: Int, sequence: Int) -> Data {
        ladder.fmp4 ? FakeMedia.box("moof", size: 4_000, tag: UInt8(variant)) : FakeMedia.ts(variant: variant, sequence: sequence, packets: 20)
    }

    func initPlaintext(variant: Int) -> Data { FakeMedia.box("ftyp", size: 1_000, tag: UInt8(variant)) }

    func ciphertext(variant: Int, sequence: Int) -> Data {
        let key = keys[keyPath(sequence)] ?? secretKey
        return encrypt(plaintext(variant: variant, sequence: sequence), key: key.count == 16 ? key : secretKey, iv: iv ?? sequenceIV(sequence))
    }

    func install(on cdn: FakeCDN) {
        cdn.set("\(ladder.root)/master.m3u8", playlist: ladder.master)
        for (path, key) in keys { cdn.set(path, contentType: "application/octet-stream", Data(key)) }
        for variant in ladder.bandwidths.indices {
            cdn.set("\(ladder.root)/v\(variant)/index.m3u8", playlist: mediaPlaylist())
            if ladder.fmp4 {
                let clear = initPlaintext(variant: variant)
                cdn.set(
                    "\(ladder.root)/v\(variant)/init.mp4", contentType: "video/mp4",
                    mapUnderKey ? encrypt(clear, key: keys[keyPath(0)]!, iv: iv ?? sequenceIV(0)) : clear)
            }
            for sequence in 0..<ladder.segments {
                cdn.set(
                    ladder.segmentPath(variant: variant, sequence: sequence), contentType: ladder.fmp4 ? "video/mp4" : "video/mp2t",
                    ciphertext(variant: variant, sequence: sequence))
            }
        }
    }
}

/// Everything a session reported, as text: where a key must never show up.
private func reportedText(_ harness: Harness) -> String {
    let events = harness.events.all.map { String(describing: $0) + String(reflecting: $0) }
    let errors = (harness.events.failures + harness.events.downloadFailures).flatMap {
        [$0.description, $0.message, $0.playbackError.description, $0.downloadFailure.description]
    }
    return (events + errors).joined(separator: "\n")
}

private func expectNoKeyBytes(_ text: String, _ key: [UInt8] = secretKey, sourceLocation: SourceLocation = #_sourceLocation) {
    let raw = String(decoding: key, as: UTF8.self)
    #expect(!text.contains(raw), "the raw key bytes leaked", sourceLocation: sourceLocation)
    #expect(!text.lowercased().contains(hex(key)), "the key leaked in hex", sourceLocation: sourceLocation)
    #expect(!text.contains(key.map(String.init).joined(separator: ", ")), "the key leaked as a byte list", sourceLocation: sourceLocation)
}

private func failure(of harness: Harness, sourceLocation: SourceLocation = #_sourceLocation) async throws -> StreamingError {
    try await waitUntil("a failure event", sourceLocation: sourceLocation) { !harness.events.failures.isEmpty || !harness.events.downloadFailures.isEmpty }
    return try #require((harness.events.failures + harness.events.downloadFailures).first, sourceLocation: sourceLocation)
}

private func playToEnd(_ harness: Harness, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    harness.session.start(at: nil)
    try await waitUntil("the end of the stream", sourceLocation: sourceLocation) {
        !harness.output.endOfStream.isEmpty || !harness.events.failures.isEmpty || !harness.events.downloadFailures.isEmpty
    }
    #expect(
        harness.events.failures.isEmpty && harness.events.downloadFailures.isEmpty, "\(harness.events.failures + harness.events.downloadFailures)",
        sourceLocation: sourceLocation)
}

// MARK: The decryptor

@Suite("Encryption: AES-128 segment decryption")
struct SegmentDecryptorTests {
    /// NIST SP 800-38A F.2.1 (CBC-AES128); the fifth block is the PKCS#7 padding block, made with
    /// `openssl enc -aes-128-cbc`.
    @Test func decryptsTheNISTVectorWithItsPaddingBlock() throws {
        let key = try #require(Data(hexString: "2b7e151628aed2a6abf7158809cf4f3c"))
        let iv = try #require(Data(hexString: "000102030405060708090a0b0c0d0e0f"))
        let plaintext = try #require(
            Data(
                hexString:
                    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"))
        let ciphertext = try #require(
            Data(
                hexString:
                    "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"
                    + "8cb82807230e1321d3fae00d18cc2012"))
        #expect(try SegmentDecryptor.decrypt(ciphertext, key: [UInt8](key), iv: [UInt8](iv)) == plaintext)
    }

    @Test(arguments: [0, 1, 15, 16, 17, 188, 4_000])
    func roundTripsWhatSwiftCryptoEncrypts(length: Int) throws {
        let plaintext = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let iv = Array(0..<16).map { UInt8($0) }
        #expect(try SegmentDecryptor.decrypt(encrypt(plaintext, key: secretKey, iv: iv), key: secretKey, iv: iv) == plaintext)
    }

    @Test func theIVIsTheSequenceNumberBigEndianUnlessTheTagGivesOne() throws {
        #expect(try SegmentDecryptor.iv(explicit: nil, sequence: 0) == [UInt8](repeating: 0, count: 16))
        #expect(try SegmentDecryptor.iv(explicit: nil, sequence: 0x0102_0304) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4])
        let explicit = (1...16).map { UInt8($0) }
        #expect(try SegmentDecryptor.iv(explicit: explicit, sequence: 7) == explicit)
        #expect(
            try SegmentDecryptor.iv(explicit: [0xAB, 0xCD], sequence: 7) == [UInt8](repeating: 0, count: 14) + [0xAB, 0xCD], "a short IV is a big-endian number"
        )
        #expect(throws: SegmentDecryptor.Failure.ivLength(17)) { try SegmentDecryptor.iv(explicit: [UInt8](repeating: 1, count: 17), sequence: 0) }

        // Encrypted with the sequence number's IV: only that IV gives the first block back.
        let plaintext = FakeMedia.ts(variant: 1, sequence: 9, packets: 2)
        let ciphertext = encrypt(plaintext, key: secretKey, iv: sequenceIV(9))
        #expect(try SegmentDecryptor.decrypt(ciphertext, key: secretKey, iv: SegmentDecryptor.iv(explicit: nil, sequence: 9)) == plaintext)
        #expect(try SegmentDecryptor.decrypt(ciphertext, key: secretKey, iv: SegmentDecryptor.iv(explicit: nil, sequence: 8)) != plaintext)
    }

    @Test func aKeyThatIsNot16BytesIsATypedFailure() {
        let ciphertext = encrypt(Data(repeating: 1, count: 40), key: secretKey, iv: sequenceIV(0))
        #expect(throws: SegmentDecryptor.Failure.keyLength(15)) {
            try SegmentDecryptor.decrypt(ciphertext, key: Array(secretKey.prefix(15)), iv: sequenceIV(0))
        }
        #expect(throws: SegmentDecryptor.Failure.keyLength(32)) { try SegmentDecryptor.decrypt(ciphertext, key: secretKey + secretKey, iv: sequenceIV(0)) }
    }

    @Test func badPaddingAndPartialBlocksAreTypedFailures() {
        var ciphertext = encrypt(Data(repeating: 1, count: 40), key: secretKey, iv: sequenceIV(0))
        // Flipping the last byte of the block before the last flips the last plaintext byte: the padding.
        ciphertext[ciphertext.count - 17] ^= 0x01
        #expect(throws: SegmentDecryptor.Failure.badPadding) { try SegmentDecryptor.decrypt(ciphertext, key: secretKey, iv: sequenceIV(0)) }
        #expect(throws: SegmentDecryptor.Failure.notWholeBlocks(47)) { try SegmentDecryptor.decrypt(ciphertext.prefix(47), key: secretKey, iv: sequenceIV(0)) }
        #expect(throws: SegmentDecryptor.Failure.notWholeBlocks(0)) { try SegmentDecryptor.decrypt(Data(), key: secretKey, iv: sequenceIV(0)) }
    }

    @Test func onlyAES128WithTheIdentityKeyFormatIsDecrypted() {
        let url = FakeCDN.url("/k")
        #expect(SegmentDecryptor.canDecrypt(SegmentKey(method: .aes128, keyURL: url)))
        #expect(!SegmentDecryptor.canDecrypt(SegmentKey(method: .sampleAES, keyURL: url)))
        #expect(!SegmentDecryptor.canDecrypt(SegmentKey(method: .sampleAESCTR, keyURL: url)))
        #expect(!SegmentDecryptor.canDecrypt(SegmentKey(method: .other, keyURL: url)))
        #expect(!SegmentDecryptor.canDecrypt(SegmentKey(method: .aes128, keyURL: url, keyFormat: "com.apple.streamingkeydelivery")))
    }
}

// MARK: The key cache

/// Answers every request after `delay`, counting them; the first `failures` answers are 500s.
private final class SlowKeyServer: HTTPTransport {
    let delay: Duration
    private let state: Mutex<(count: Int, failures: Int)>

    init(delay: Duration, failures: Int = 0) {
        self.delay = delay
        state = Mutex((0, failures))
    }

    var count: Int { state.withLock { $0.count } }

    func exchange(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let fail = state.withLock { s -> Bool in
            s.count += 1
            defer { s.failures -= 1 }
            return s.failures > 0
        }
        try? await Task.sleep(for: delay)
        return HTTPResponse(status: fail ? 500 : 200, headers: HTTPHeaders(), body: fail ? Data("oops".utf8) : Data(secretKey), url: request.url)
    }
}

@Suite("Encryption: key cache")
struct KeyCacheTests {
    @Test func concurrentRequestsForOneKeyShareOneFetch() async throws {
        let server = SlowKeyServer(delay: .milliseconds(100))
        let cache = KeyCache(loader: StreamingLoader(transport: server, retry: .none))
        let key = SegmentKey(method: .aes128, keyURL: FakeCDN.url("/keys/a.bin"))
        let decryptions = try await withThrowingTaskGroup(of: SegmentDecryption?.self) { group in
            for sequence in 0..<20 {
                group.addTask { try await cache.decryption(for: key, sequence: sequence, segmentURL: FakeCDN.url("/s\(sequence).ts")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(decryptions.count == 20 && decryptions.allSatisfy { $0 != nil })
        #expect(server.count == 1)
        // Cached: no further request.
        _ = try await cache.decryption(for: key, sequence: 99, segmentURL: FakeCDN.url("/s99.ts"))
        #expect(server.count == 1)
        expectNoKeyBytes(cache.description + decryptions.map { String(describing: $0) + String(reflecting: $0) }.joined())
        var dumped = ""
        dump(decryptions.first!, to: &dumped)
        expectNoKeyBytes(dumped)
    }

    @Test func aFailedFetchIsNotKept() async throws {
        let server = SlowKeyServer(delay: .zero, failures: 1)
        let cache = KeyCache(loader: StreamingLoader(transport: server, retry: .none))
        let key = SegmentKey(method: .aes128, keyURL: FakeCDN.url("/keys/a.bin"))
        let error = await StreamingError.caught { () async throws(StreamingError) in
            try await cache.decryption(for: key, sequence: 0, segmentURL: FakeCDN.url("/s0.ts"))
        }
        #expect(error?.httpStatus == 500)
        #expect(try await cache.decryption(for: key, sequence: 0, segmentURL: FakeCDN.url("/s0.ts")) != nil)
        #expect(server.count == 2)
    }

    @Test func aClearSegmentNeedsNoKey() async throws {
        let server = SlowKeyServer(delay: .zero)
        let cache = KeyCache(loader: StreamingLoader(transport: server, retry: .none))
        #expect(try await cache.decryption(for: nil, sequence: 0, segmentURL: FakeCDN.url("/s0.ts")) == nil)
        #expect(server.count == 0)
    }
}

// MARK: Sessions

@Suite("Encryption: AES-128 sessions")
struct EncryptedSessionTests {
    fileprivate static func expectDecrypted(_ harness: Harness, _ fixture: EncryptedLadder, sourceLocation: SourceLocation = #_sourceLocation) {
        let media = harness.output.media
        #expect(media.map(\.sequence) == Array(0..<fixture.ladder.segments), sourceLocation: sourceLocation)
        for chunk in media {
            #expect(
                chunk.data == fixture.plaintext(variant: chunk.variantIndex, sequence: chunk.sequence),
                "segment \(chunk.sequence) of variant \(chunk.variantIndex)", sourceLocation: sourceLocation)
        }
    }

    @Test func anAES128LadderPlaysDecryptedWithTheSequenceNumberAsIV() async throws {
        let cdn = FakeCDN()
        let fixture = EncryptedLadder()
        fixture.install(on: cdn)
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        try await playToEnd(harness)
        Self.expectDecrypted(harness, fixture)
        #expect(Set(harness.output.media.map(\.variantIndex)).count > 1, "the ABR moved between variants")
        // One key for every variant: fetched once, before the first segment.
        #expect(cdn.requestedPaths.filter { $0 == "/vod/keys/k0.bin" }.count == 1)
        #expect(harness.events.requests.filter { $0.kind == .key }.count == 1)
        let firstKey = try #require(cdn.requestedPaths.firstIndex(of: "/vod/keys/k0.bin"))
        let firstSegment = try #require(cdn.requestedPaths.firstIndex { $0.hasSuffix(".ts") })
        #expect(firstKey < firstSegment)
        expectNoKeyBytes(reportedText(harness))
    }

    @Test func anExplicitIVIsUsed() async throws {
        let cdn = FakeCDN()
        var fixture = EncryptedLadder()
        fixture.iv = (0..<16).map { UInt8(0xA0 + $0) }
        fixture.install(on: cdn)
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        try await playToEnd(harness)
        Self.expectDecrypted(harness, fixture)
    }

    @Test func keyRotationMidStreamFetchesEachKeyOnce() async throws {
        let cdn = FakeCDN()
        var fixture = EncryptedLadder()
        fixture.keys = ["/vod/keys/k0.bin": secretKey, "/vod/keys/k1.bin": rotatedKey]
        fixture.keyPath = { $0 < 6 ? "/vod/keys/k0.bin" : "/vod/keys/k1.bin" }
        fixture.install(on: cdn)
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        try await playToEnd(harness)
        Self.expectDecrypted(harness, fixture)
        #expect(Set(harness.output.media.map(\.variantIndex)).count > 1)
        #expect(cdn.requestedPaths.filter { $0.hasPrefix("/vod/keys/") } == ["/vod/keys/k0.bin", "/vod/keys/k1.bin"])
        let text = reportedText(harness)
        expectNoKeyBytes(text)
        expectNoKeyBytes(text, rotatedKey)
    }

    @Test func anEncryptedFMP4InitSectionIsDecryptedToo() async throws {
        let cdn = FakeCDN()
        var fixture = EncryptedLadder()
        fixture.ladder.fmp4 = true
        fixture.ladder.segments = 4
        fixture.iv = (0..<16).map { UInt8(0x10 + $0) }
        fixture.install(on: cdn)
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        try await playToEnd(harness)
        Self.expectDecrypted(harness, fixture)
        let inits = harness.output.chunks.filter { $0.kind == .initSegment }
        #expect(!inits.isEmpty)
        for chunk in inits { #expect(chunk.data == fixture.initPlaintext(variant: chunk.variantIndex)) }
    }

    /// EXT-X-MAP before the EXT-X-KEY: the init section is clear and is pushed as it is.
    @Test func aClearInitSectionBeforeTheKeyIsKept() async throws {
        let cdn = FakeCDN()
        var fixture = EncryptedLadder()
        fixture.ladder.fmp4 = true
        fixture.ladder.segments = 4
        fixture.mapUnderKey = false
        fixture.install(on: cdn)
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        try await playToEnd(harness)
        Self.expectDecrypted(harness, fixture)
        for chunk in harness.output.chunks where chunk.kind == .initSegment { #expect(chunk.data == fixture.initPlaintext(variant: chunk.variantIndex)) }
    }

    // MARK: Key servers that want a token

    @Test(arguments: [401, 403])
    func aKeyServerRefusingTheKeyFailsWithKeyAuthorizationFailed(status: Int) async throws {
        let cdn = FakeCDN()
        let fixture = EncryptedLadder()
        fixture.install(on: cdn)
        cdn.protect("/vod/keys/k0.bin", header: "Authorization", value: "Bearer app-token-7", status: status)
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        let error = try await failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.keyAuthorizationFailed])
        #expect(error.httpStatus == status)
        #expect(error.message.contains("key server refused"))
        #expect(error.message.contains("request filter"))
        #expect(error.playbackError.code == .keyAuthorizationFailed)
        #expect(error.playbackError.code.rawValue == 2007)
        #expect(!cdn.requestedPaths.contains { $0.hasSuffix(".ts") }, "no segment is fetched without its key")
        #expect(harness.output.log.isEmpty)
        expectNoKeyBytes(reportedText(harness))
    }

    @Test func aRequestFilterForKeysAddsTheTokenAndOnlyToKeys() async throws {
        let cdn = FakeCDN()
        let fixture = EncryptedLadder()
        fixture.install(on: cdn)
        cdn.protect("/vod/keys/k0.bin", header: "Authorization", value: "Bearer app-token-7", status: 401)
        let configuration = StreamingConfiguration(requestFilters: [.header("Authorization", "Bearer app-token-7", kinds: [.key])], retryPolicy: .none)
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL, configuration: configuration)
        defer { harness.session.close() }
        try await playToEnd(harness)
        Self.expectDecrypted(harness, fixture)
        let requests = cdn.transport.requests
        #expect(requests.filter { $0.url.path.hasPrefix("/vod/keys/") }.map { $0.headers["Authorization"] } == ["Bearer app-token-7"])
        let segments = requests.filter { $0.url.path.hasSuffix(".ts") }
        #expect(!segments.isEmpty)
        #expect(segments.allSatisfy { $0.headers["Authorization"] == nil })
        #expect(!reportedText(harness).contains("app-token-7"))
    }

    /// A rotated key the server refuses, once media is buffered: a download failure, what was pushed stays.
    @Test func aRefusedRotatedKeyMidStreamIsADownloadFailure() async throws {
        let cdn = FakeCDN()
        var fixture = EncryptedLadder()
        fixture.keys = ["/vod/keys/k0.bin": secretKey, "/vod/keys/k1.bin": rotatedKey]
        fixture.keyPath = { $0 < 6 ? "/vod/keys/k0.bin" : "/vod/keys/k1.bin" }
        fixture.install(on: cdn)
        cdn.protect("/vod/keys/k1.bin", header: "Authorization", value: "Bearer x", status: 403)
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        let error = try await failure(of: harness)
        #expect(harness.events.failures.isEmpty)
        #expect(harness.events.downloadFailures.map(\.code) == [.keyAuthorizationFailed])
        #expect(error.httpStatus == 403)
        #expect(harness.output.media.map(\.sequence) == Array(0..<6))
    }

    // MARK: Bad keys and data

    @Test func aFifteenByteKeyFailsWithDecryptionFailed() async throws {
        let cdn = FakeCDN()
        var fixture = EncryptedLadder()
        let shortKey = Array(secretKey.prefix(15))
        fixture.keys = ["/vod/keys/k0.bin": shortKey]
        fixture.install(on: cdn)
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        let error = try await failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.decryptionFailed])
        #expect(error.message.contains("15 bytes"))
        #expect(error.playbackError.code == .decryptionFailed)
        #expect(error.playbackError.code.rawValue == 3004)
        #expect(harness.output.log.isEmpty)
        expectNoKeyBytes(reportedText(harness), shortKey)
    }

    @Test func corruptedCiphertextFailsWithDecryptionFailed() async throws {
        let cdn = FakeCDN()
        let fixture = EncryptedLadder()
        fixture.install(on: cdn)
        for variant in fixture.ladder.bandwidths.indices {
            var bytes = fixture.ciphertext(variant: variant, sequence: 0)
            bytes[bytes.count - 17] ^= 0x01  // the last plaintext byte: the padding
            cdn.set(fixture.ladder.segmentPath(variant: variant, sequence: 0), contentType: "video/mp2t", bytes)
        }
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        let error = try await failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.decryptionFailed])
        #expect(error.message.contains("padding"))
        #expect(error.playbackError.code == .decryptionFailed)
        expectNoKeyBytes(reportedText(harness))
    }

    /// An error page instead of an encrypted segment is the server's answer (notMedia), not a key problem.
    @Test func anHTMLPageInsteadOfAnEncryptedSegmentIsNotMedia() async throws {
        let cdn = FakeCDN()
        let fixture = EncryptedLadder()
        fixture.install(on: cdn)
        for variant in fixture.ladder.bandwidths.indices {
            cdn.set(fixture.ladder.segmentPath(variant: variant, sequence: 0), contentType: "text/html", Data("<html><body>blocked</body></html>".utf8))
        }
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        _ = try await failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.notMedia])
    }

    // MARK: What Cove does not decrypt

    @Test(arguments: [("SAMPLE-AES", nil), ("SAMPLE-AES-CTR", nil), ("AES-128", "com.apple.streamingkeydelivery")] as [(String, String?)])
    func drmSchemesStayUnsupported(method: String, keyFormat: String?) async throws {
        let cdn = FakeCDN()
        var fixture = EncryptedLadder()
        fixture.method = method
        fixture.keyFormat = keyFormat
        fixture.install(on: cdn)
        let harness = Harness(cdn: cdn, url: fixture.ladder.masterURL)
        defer { harness.session.close() }
        harness.session.start(at: nil)
        let error = try await failure(of: harness)
        #expect(harness.events.failures.map(\.code) == [.drmUnsupported])
        #expect(error.message.contains(method))
        #expect(error.message.contains(keyFormat ?? "identity"))
        #expect(error.message.contains("DRM"))
        #expect(error.playbackError.code == .drmUnsupported)
        #expect(!cdn.requestedPaths.contains { $0.hasPrefix("/vod/keys/") || $0.hasSuffix(".ts") })
        #expect(harness.output.log.isEmpty)
    }
}

extension Data {
    fileprivate init?(hexString: String) {
        var bytes: [UInt8] = []
        var index = hexString.startIndex
        while index < hexString.endIndex {
            let next = hexString.index(index, offsetBy: 2)
            guard let byte = UInt8(hexString[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
