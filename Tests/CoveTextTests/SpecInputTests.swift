import CoveText
import Testing

/// The W3C spec's "WebVTT file parsing" before a line is read, one test per step or branch:
/// "UTF-8 decode" (one byte-order mark dropped, each ill-formed sequence replaced), the parser
/// algorithm's step 1 (U+0000 → U+FFFD, CRLF and CR → LF), and Cove's own guard against binary
/// input in front of them, which names what it found.
@Suite("Spec: decoding, preprocessing and the binary guard")
struct SpecInputTests {
    static let replacement = "\u{FFFD}"

    /// `text` as UTF-8 with each `¤` replaced by the next of `values` (bytes text cannot hold).
    static func bytes(_ text: String, _ values: UInt8...) -> [UInt8] {
        var output: [UInt8] = []
        var next = values.makeIterator()
        for character in text {
            if character == "¤", let value = next.next() { output.append(value) } else { output += Array(String(character).utf8) }
        }
        return output
    }

    // MARK: UTF-8 decode

    @Test func utf8DecodeDropsOneByteOrderMark() throws {
        let document = try WebVTT.parse([0xEF, 0xBB, 0xBF] + Array("WEBVTT\n\n00:00.000 --> 00:01.000\nx".utf8))
        #expect(document.cues.map(\.payload) == ["x"])
        // A second mark is a U+FEFF character before the signature.
        expectFailure([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("WEBVTT".utf8), .missingHeader, line: 1)
    }

    @Test func utf8DecodeReplacesIllFormedBytesInIdentifierTextAndSettings() throws {
        let input = Self.bytes("WEBVTT\n\nid¤\n00:00.000 --> 00:01.000 align:¤ size:50%\ncaf¤", 0xE9, 0xFF, 0xE9)
        let document = try WebVTT.parse(input)
        let cue = try #require(document.cues.first)
        #expect(cue.identifier == "id" + Self.replacement)
        #expect(cue.settings.raw == "align:\(Self.replacement) size:50%")
        #expect(cue.settings.align == nil && cue.settings.size == 50)
        #expect(cue.payload == "caf" + Self.replacement)
        #expect(document.warnings.map(\.kind) == [.invalidUTF8])
        #expect(document.warnings.first?.line == 3)
        #expect(document.warnings.first?.message.contains("3 ill-formed UTF-8 sequences") == true)
    }

    @Test func utf8DecodeReplacementInTheSignatureFailsTheSignature() {
        expectFailure(Self.bytes("WEBV¤T\n", 0xFF), .missingHeader, line: 1)
        expectFailure(Self.bytes("WEBVTT¤\n", 0xC3), .missingHeader, line: 1)
    }

    @Test(
        arguments: [
            [0xFF, 0xFE] + Array("WEBVTT\n".utf8).flatMap { [$0, 0] },
            [0xFE, 0xFF] + Array("WEBVTT\n".utf8).flatMap { [0, $0] },
            Array("WEBVTT\n\n".utf8).flatMap { [$0, 0] },
            Array("WEBVTT\n\n".utf8).flatMap { [0, $0] },
        ] as [[UInt8]])
    func utf16IsRefusedWithAdviceToReencode(input: [UInt8]) {
        let error = expectFailure(input, .invalidUTF8, line: 1)
        #expect(error?.detail.contains("UTF-16") == true)
        #expect(error?.advice.contains("UTF-8") == true)
    }

    // MARK: Parser algorithm, step 1: U+0000 → U+FFFD

    @Test func step1ReplacesNULInTheCueIdentifierTextAndASettingValue() throws {
        let input = Self.bytes("WEBVTT\n\nREGION\nid:r¤\n\ncue¤id\n00:00.000 --> 00:01.000 region:r¤ align:end\na¤b\n", 0, 0, 0, 0)
        let document = try WebVTT.parse(input)
        let cue = try #require(document.cues.first)
        #expect(cue.identifier == "cue\(Self.replacement)id")
        #expect(cue.payload == "a\(Self.replacement)b")
        #expect(cue.text == "a\(Self.replacement)b")
        // The region's id and the setting's value were both replaced, so they still match.
        #expect(document.regions.map(\.id) == ["r\(Self.replacement)"])
        #expect(cue.settings.region == "r\(Self.replacement)")
        #expect(cue.settings.raw == "region:r\(Self.replacement) align:end")
        #expect(cue.settings.align == .end)
        #expect(document.warnings.map(\.kind) == [.nulCharacters])
        #expect(document.warnings.first?.line == 4)
        #expect(document.warnings.first?.message.contains("4 NUL bytes") == true)
        #expect(WebVTTFuzz.check(input) == nil)
    }

    @Test func step1NULInTheSignatureLineFailsOnlyWhereTheSignatureLooks() throws {
        expectFailure(Self.bytes("WEBVTT¤\n", 0), .missingHeader, line: 1)
        #expect(try WebVTT.parse(Self.bytes("WEBVTT ¤title\n", 0)).headerText == "\(Self.replacement)title")
    }

    @Test func step1NULInsideTheArrowMeansTheLineHasNoArrow() throws {
        let document = try WebVTT.parse(Self.bytes("WEBVTT\n\n00:00.000 -¤> 00:01.000\ntext\n", 0))
        #expect(document.cues.isEmpty)
        #expect(document.warnings.map(\.kind) == [.nulCharacters, .unrecognizedBlock])
    }

    @Test func step1NULsAndIllFormedBytesAreOneWarningEachInFileOrder() throws {
        let document = try WebVTT.parse(Self.bytes("WEBVTT\n\n00:00.000 --> 00:01.000\n¤\n¤¤\n", 0xFF, 0, 0))
        #expect(document.cues.map(\.payload) == ["\(Self.replacement)\n\(Self.replacement)\(Self.replacement)"])
        #expect(document.warnings.map(\.kind) == [.invalidUTF8, .nulCharacters])
        #expect(document.warnings.map(\.line) == [4, 5])
    }

    // MARK: Parser algorithm, step 1: CRLF → LF, then CR → LF

    @Test(arguments: ["\n", "\r\n", "\r"])
    func step1EveryLineEndingIsALineFeed(ending: String) throws {
        let text = ["WEBVTT", "", "id", "00:00.000 --> 00:01.000", "one", "two", "", "00:02.000 --> 00:03.000", "three"].joined(separator: ending)
        let document = try parse(text)
        #expect(document.cues.map(\.payload) == ["one\ntwo", "three"])
        #expect(document.cues.first?.identifier == "id")
    }

    @Test func step1ACarriageReturnBeforeACRLFIsABlankLine() throws {
        // "\r\r\n" is CR then CRLF: two line feeds, so the cue ends after "one" and "two" is the
        // next cue's identifier.
        let document = try parse("WEBVTT\r\r\n00:00.000 --> 00:01.000\rone\r\r\ntwo\r\n00:02.000 --> 00:03.000\rthree")
        #expect(document.cues.map(\.payload) == ["one", "three"])
        #expect(document.cues.map(\.identifier) == [nil, "two"])
        #expect(document.headerLines.isEmpty)
    }

    // MARK: Cove's guard against binary input

    static func transportStream(packets: Int, size: Int = 188, offset: Int = 0) -> [UInt8] {
        (0..<packets).flatMap { _ in [UInt8](repeating: 0xFF, count: offset) + [0x47, 0x40, 0x11, 0x10] + [UInt8](repeating: 0xFF, count: size - offset - 4) }
    }

    @Test(arguments: [1, 2, 7])
    func aTransportStreamPacketRunIsBinaryMPEGTS(packets: Int) {
        let error = expectFailure(Self.transportStream(packets: packets), .binaryData(.mpegTS), line: nil)
        #expect(error?.detail.contains("MPEG-2 transport stream") == true)
        #expect(error?.advice.contains("media segment") == true)
        // M2TS: a 4-byte time code before each 188-byte packet.
        expectFailure(Self.transportStream(packets: packets, size: 192, offset: 4), .binaryData(.mpegTS), line: nil)
    }

    @Test func aShortAnswerStartingWithGIsNotATransportStream() {
        expectFailure("GATEWAY TIMEOUT", .missingHeader, line: 1)
        // A lost sync byte in the second packet: not recognised, so the signature decides.
        var broken = Self.transportStream(packets: 2)
        broken[188] = 0x00
        expectFailure(broken, .missingHeader, line: 1)
    }

    @Test(arguments: ["ftyp", "styp", "moof", "moov"])
    func anISOBMFFBoxIsBinaryISOBMFF(type: String) {
        let mp4 = [0, 0, 0, 0x18] + Array("\(type)isom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8) + [UInt8](repeating: 0xAB, count: 100)
        let error = expectFailure(mp4, .binaryData(.isoBMFF), line: nil)
        #expect(error?.detail.contains("'\(type)' box") == true)
    }

    @Test(
        arguments: [
            ([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3F, 0xFF, 0xF1], WebVTTParseError.BinaryKind.id3),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D], .png),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46], .jpeg),
            ([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03], .gzip),
        ] as [([UInt8], WebVTTParseError.BinaryKind)])
    func magicBytesNameWhatWasFound(magic: [UInt8], kind: WebVTTParseError.BinaryKind) {
        let error = expectFailure(magic + [UInt8](repeating: 0x41, count: 50), .binaryData(kind), line: nil)
        #expect(error?.description.hasPrefix("WebVTT rejected (binaryData): ") == true)
    }

    @Test func mostlyNULIsBinaryMostlyControlBytes() {
        let error = expectFailure([UInt8](repeating: 0, count: 4_096), .binaryData(.mostlyControlBytes), line: nil)
        #expect(error?.detail.contains("4096 of the 4096 bytes") == true)
        // A signature does not save a file that is mostly zero padding.
        let padded = Array("WEBVTT\n\n".utf8) + [UInt8](repeating: 0, count: 100)
        expectFailure(padded, .binaryData(.mostlyControlBytes), line: nil)
        // Nor other control bytes.
        expectFailure([0, 1, 2, 3], .binaryData(.mostlyControlBytes), line: nil)
    }

    @Test func mostlyMeansMoreThanHalf() throws {
        let text = Array("WEBVTT\n\n00:00.000 --> 00:01.000\n".utf8)
        let half = try WebVTT.parse(text + [UInt8](repeating: 0, count: text.count))
        #expect(half.cues.first?.payload == String(repeating: Self.replacement, count: text.count))
        #expect(half.warnings.map(\.kind) == [.nulCharacters])
        expectFailure(text + [UInt8](repeating: 0, count: text.count + 1), .binaryData(.mostlyControlBytes), line: nil)
        // Line breaks, tabs and form feeds are text, however many there are.
        #expect(try WebVTT.parse(Array("WEBVTT".utf8) + [UInt8](repeating: 0x0A, count: 500) + [0x09, 0x0C]).cues.isEmpty)
    }

    @Test func everyBinaryKindHasItsOwnSentences() {
        let samples: [WebVTTParseError.BinaryKind: [UInt8]] = [
            .mpegTS: Self.transportStream(packets: 1),
            .isoBMFF: [0, 0, 0, 8] + Array("ftyp".utf8),
            .id3: [0x49, 0x44, 0x33, 0x03, 0, 0, 0, 0, 0, 0],
            .png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            .jpeg: [0xFF, 0xD8, 0xFF, 0xDB],
            .gzip: [0x1F, 0x8B, 0x08, 0x00],
            .mostlyControlBytes: [0, 0, 0],
        ]
        #expect(Set(samples.keys) == Set(WebVTTParseError.BinaryKind.allCases))
        var details: Set<String> = []
        for (kind, input) in samples {
            let error = expectFailure(input, .binaryData(kind), line: nil)
            #expect(error?.kind.name == "binaryData")
            details.insert(error?.detail ?? "")
        }
        #expect(details.count == samples.count)
    }
}
