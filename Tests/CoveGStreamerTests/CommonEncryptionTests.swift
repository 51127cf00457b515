import CoveCore
import CoveServer
import CoveTestSupport
import CoveTesting
import Foundation
import Testing

@testable import CoveStreaming

/// The Common Encryption reader and decryptor against the packaged fixtures: decrypting gives back the
/// clear samples byte for byte; ffmpeg (a decryptor Cove did not write) decrypts the packager's output to
/// the clear frames; hostile boxes fail typed; mutated boxes never trap.
@Suite("Common Encryption")
struct CommonEncryptionTests {
    static let keys = [ProtectedFixture.key, ProtectedFixture.rotationKey].reduce(into: [KeyID: [UInt8]]()) { $0[$1.id] = $1.key }

    static func session(_ keys: [KeyID: [UInt8]] = keys) throws -> any DecryptionSession {
        try ClearKeyModule(keys: keys).makeSession(keySystem: .clearKey, kind: .temporary, configuration: KeySystemConfiguration())
    }

    /// The bytes of a file's last top-level box (a fragment's `mdat`).
    static func mdat(_ data: Data) throws -> Data {
        try data.withUnsafeBytes { raw in
            let boxes = try BoxReader.boxes(raw, in: 0..<raw.count)
            let box = try #require(boxes.last { $0.type == "mdat" })
            return Data(raw[box.start..<box.end])
        }
    }

    static func decrypt(_ fragment: Data, _ content: ProtectedInitSegment, session: any DecryptionSession) throws(FragmentDecryptor.Failure) -> Data {
        var copy = fragment
        try FragmentDecryptor.decrypt(&copy, protection: content) { sample, bytes throws(DecryptionError) in try session.decrypt(sample, in: bytes) }
        return copy
    }

    @Test(arguments: ["cenc", "cbcs", "rotation"])
    func decryptedFragmentsHoldTheClearSamples(_ name: String) async throws {
        let fixture = try await ProtectedFixture.prepare()
        let folder = fixture.root.appendingPathComponent(name)
        let clear = fixture.root.appendingPathComponent("clear")
        let session = try Self.session()
        var checked = 0
        for stream in 0..<3 {
            let initData = try Data(contentsOf: folder.appendingPathComponent("init-stream\(stream).m4s"))
            let content = try #require(try ProtectedInitSegment.read(initData))
            #expect(content.tracks.count == 1)
            #expect(content.systemHeaders.map(\.keySystem) == [.clearKey])
            let scheme = try #require(content.tracks.values.first?.scheme)
            #expect(scheme == (name == "cbcs" ? .cbcs : .cenc))
            // The clear init reads as unprotected, the same size as the protected one.
            #expect(try ProtectedInitSegment.read(content.clear) == nil)
            #expect(content.clear.count == initData.count)
            for number in 1...fixture.duration / 2 {
                let file = String(format: "chunk-stream%d-%05d.m4s", stream, number)
                let fragment = try Data(contentsOf: folder.appendingPathComponent(file))
                let decrypted = try Self.decrypt(fragment, content, session: session)
                #expect(decrypted.count == fragment.count)
                #expect(try Self.mdat(decrypted) == Self.mdat(Data(contentsOf: clear.appendingPathComponent(file))), "\(name)/\(file)")
                checked += 1
            }
        }
        #expect(checked >= 18)
    }

    /// ffmpeg decrypts one fragment of each stream of the packager's output to the same frames as the
    /// clear source: the packaging (and so what Cove's decryptor is checked against) is real CENC.
    @Test(arguments: ["cenc", "cbcs"])
    func ffmpegDecryptsThePackagedFragmentsToTheClearFrames(_ name: String) async throws {
        let fixture = try await ProtectedFixture.prepare()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("cove-cenc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        for stream in 0..<3 {
            func joined(_ folder: String) throws -> URL {
                let dir = fixture.root.appendingPathComponent(folder)
                let bytes =
                    try Data(contentsOf: dir.appendingPathComponent("init-stream\(stream).m4s"))
                    + Data(contentsOf: dir.appendingPathComponent("chunk-stream\(stream)-00002.m4s"))
                let url = work.appendingPathComponent("\(folder)-\(stream).mp4")
                try bytes.write(to: url)
                return url
            }
            func frames(_ url: URL, key: String?) async throws -> [Substring] {
                let result = try await ProcessRunner.run(
                    "ffmpeg", ["-v", "error", "-nostdin"] + (key.map { ["-decryption_key", $0] } ?? []) + ["-i", url.path, "-f", "framemd5", "-"])
                #expect(result.status == 0, "\(result.errorOutput)")
                return result.output.split(separator: "\n").filter { !$0.hasPrefix("#") }
            }
            let decrypted = try await frames(joined(name), key: HexBytes.encode(ProtectedFixture.key.key))
            let clear = try await frames(joined("clear"), key: nil)
            #expect(decrypted.count > 40)
            #expect(decrypted == clear, "stream \(stream) of \(name) decrypts differently in ffmpeg")
        }
    }

    // MARK: Hostile boxes

    /// The first box of `type` found anywhere under the top level (containers walked).
    static func locate(_ data: Data, _ type: String) throws -> BoxReader.Box {
        try data.withUnsafeBytes { raw in
            var queue = try BoxReader.boxes(raw, in: 0..<raw.count)
            while !queue.isEmpty {
                let box = queue.removeFirst()
                if box.type == type { return box }
                if ["moov", "trak", "mdia", "minf", "stbl", "moof", "traf"].contains(box.type) { queue += try BoxReader.boxes(raw, in: box.payload) }
            }
            throw CENCParseError(type, "not found")
        }
    }

    static func put32(_ data: inout Data, _ offset: Int, _ value: UInt32) {
        data.withUnsafeMutableBytes { BoxReader.put32($0, offset, value) }
    }

    static func videoPair() async throws -> (content: ProtectedInitSegment, initData: Data, fragment: Data) {
        let fixture = try await ProtectedFixture.prepare()
        let folder = fixture.root.appendingPathComponent("cenc")
        let initData = try Data(contentsOf: folder.appendingPathComponent("init-stream0.m4s"))
        let fragment = try Data(contentsOf: folder.appendingPathComponent("chunk-stream0-00002.m4s"))
        return (try #require(try ProtectedInitSegment.read(initData)), initData, fragment)
    }

    @Test func aSencWithMoreSamplesThanTheTrunIsATypedError() async throws {
        let (content, _, fragment) = try await Self.videoPair()
        var hostile = fragment
        let senc = try Self.locate(hostile, "senc")
        Self.put32(&hostile, senc.payload.lowerBound + 4, 5_000)
        let error = try #require(throws: FragmentDecryptor.Failure.self) { try Self.decrypt(hostile, content, session: Self.session()) }
        guard case .malformed(let parse) = error else { Issue.record("\(error)"); return }
        #expect(parse.box == "senc" && parse.description.contains("5000"), "\(parse)")
    }

    @Test func subsamplesPastTheSampleAreATypedError() async throws {
        let (content, _, fragment) = try await Self.videoPair()
        var hostile = fragment
        let senc = try Self.locate(hostile, "senc")
        // First sample: IV (8), subsample count (2), first entry's clear (2) then protected (4).
        Self.put32(&hostile, senc.payload.lowerBound + 8 + 8 + 2 + 2, 0x7FFF_FFF0)
        let error = try #require(throws: FragmentDecryptor.Failure.self) { try Self.decrypt(hostile, content, session: Self.session()) }
        #expect("\(error)".contains("past the sample"), "\(error)")
    }

    @Test func aPsshDeclaringAGigabyteIsATypedError() async throws {
        let (_, initData, _) = try await Self.videoPair()
        var hostile = initData
        let pssh = try Self.locate(hostile, "pssh")
        Self.put32(&hostile, pssh.start, 1 << 30)
        let error = try #require(throws: CENCParseError.self) { try ProtectedInitSegment.read(hostile) }
        #expect(error.box == "pssh" && error.description.contains("1073741824"), "\(error)")
    }

    /// Found by the time-budgeted fuzzing in CI (seed 1795873087734): an `stsd` shorter than its 8 bytes of
    /// fields trapped (a reversed range) instead of throwing.
    @Test func aTruncatedSampleDescriptionIsATypedError() throws {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
        }
        let tkhd = box("tkhd", [UInt8](repeating: 0, count: 12) + [0, 0, 0, 1] + [UInt8](repeating: 0, count: 64))
        let stbl = box("stbl", box("stsd", [0, 0, 0, 0]))
        let trak = box("trak", tkhd + box("mdia", box("minf", stbl)))
        // "encv" in a padding box: the reader only looks closely at segments that name an encrypted entry.
        let data = Data(box("ftyp", Array("isom".utf8) + [0, 0, 0, 0]) + box("moov", trak + box("free", Array("encv".utf8))))
        let error = try #require(throws: CENCParseError.self) { try ProtectedInitSegment.read(data) }
        #expect(error.box == "stsd", "\(error)")
        CENCFuzz.run([UInt8](data))
    }

    @Test func aKeyTheSessionLacksIsNamed() async throws {
        let (content, _, fragment) = try await Self.videoPair()
        let error = try #require(throws: FragmentDecryptor.Failure.self) { try Self.decrypt(fragment, content, session: Self.session([:])) }
        guard case .decryption(let failure) = error else { Issue.record("\(error)"); return }
        #expect(failure.kind == .keyMissing && failure.keyID == ProtectedFixture.key.id)
    }

    /// Audio decrypted with a wrong key is noise: the sample check names the key.
    @Test func aWrongKeyIsCaughtByTheSampleCheck() async throws {
        let fixture = try await ProtectedFixture.prepare()
        let folder = fixture.root.appendingPathComponent("cenc")
        let content = try #require(try ProtectedInitSegment.read(Data(contentsOf: folder.appendingPathComponent("init-stream2.m4s"))))
        let fragment = try Data(contentsOf: folder.appendingPathComponent("chunk-stream2-00002.m4s"))
        let wrong = [ProtectedFixture.key.id: Array(ProtectedFixture.key.key.reversed())]
        let error = try #require(throws: FragmentDecryptor.Failure.self) { try Self.decrypt(fragment, content, session: Self.session(wrong)) }
        #expect(error == .wrongKey(ProtectedFixture.key.id, track: 1), "\(error)")
    }

    /// The fuzz budget CI gives the box reader (20 s under CI=true, 5 s locally, or COVE_FUZZ_SECONDS), mutations
    /// stacking on the protected fixtures' init segments and fragments, with a per-run seed printed for replay
    /// through COVE_FUZZ_SEED. A trap fails the run; so does one input that takes over a second.
    @Test func fuzzForTheTimeBudget() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["COVE_FUZZ_SECONDS"].flatMap(Double.init) ?? (environment["CI"] == "true" ? 20 : 5)
        let seed = environment["COVE_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("CENC fuzz: seed \(seed), \(seconds) s (replay with COVE_FUZZ_SEED=\(seed))")
        let corpus = try await Self.fuzzCorpus()
        var random = SeededRandom(seed: seed)
        let mutator = ByteMutator(interesting: [0x00, 0x01, 0x02, 0x08, 0x10, 0x7F, 0x80, 0xFF], maxEdits: 6, maxDuplicate: 40, maxDigits: 4)
        let deadline = Date().addingTimeInterval(seconds)
        var runs = 0
        var slow = 0
        var input = corpus[0]
        while Date() < deadline && slow < 3 {
            input = mutator.mutate(random.int(0...1) == 0 ? input : random.pick(corpus), random: &random)
            if input.count > 256 * 1024 { input = random.pick(corpus) }
            let started = ContinuousClock.now
            CENCFuzz.run(input)
            if ContinuousClock.now - started > .seconds(1) {
                slow += 1
                Issue.record("seed \(seed), run \(runs): one input took over a second")
            }
            runs += 1
        }
        print("CENC fuzz: \(runs) inputs in \(seconds) s")
        #expect(runs > 100)
    }

    static func fuzzCorpus() async throws -> [[UInt8]] {
        let fixture = try await ProtectedFixture.prepare()
        var corpus: [[UInt8]] = []
        for name in ["cenc", "cbcs", "rotation"] {
            let folder = fixture.root.appendingPathComponent(name)
            corpus.append([UInt8](try Data(contentsOf: folder.appendingPathComponent("init-stream0.m4s"))))
            corpus.append([UInt8](try Data(contentsOf: folder.appendingPathComponent("init-stream2.m4s"))))
            // Fragments cut to their moof and the start of their mdat keep mutations near the boxes.
            let fragment = [UInt8](try Data(contentsOf: folder.appendingPathComponent("chunk-stream2-00005.m4s")))
            corpus.append(Array(fragment.prefix(4_096)))
        }
        return corpus
    }

    /// Thousands of mutations of real protected init segments and fragments: each reads and decrypts, or
    /// throws typed; none traps or changes the fragment's size. (`CENCFuzz.run` is the fuzzers' entry.)
    @Test func mutatedBoxesReadOrThrow() async throws {
        let corpus = try await Self.fuzzCorpus()
        var random = SeededRandom(seed: 0xCE4C)
        let mutator = ByteMutator(interesting: [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x10], maxEdits: 4, maxDuplicate: 40, maxDigits: 4)
        var total = 0
        for input in corpus {
            for _ in 0..<250 {
                if total.isMultiple(of: 100) { await Task.yield() }
                CENCFuzz.run(mutator.mutate(input, random: &random))
                total += 1
            }
            for length in stride(from: 0, through: input.count, by: max(1, input.count / 64)) { CENCFuzz.run(Array(input.prefix(length))) }
        }
        #expect(total >= 2_000)
    }
}
