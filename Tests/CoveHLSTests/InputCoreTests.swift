import CoveHLS
import CoveInput
import Testing

/// The shared core every reader's errors and limits are built on (`CoveInput`: `InputFailure`,
/// `InputLimits`, `WarningLog`), checked on a format of the tests' own, then on HLS, which uses it.
@Suite("Input core: reader errors and limits")
struct InputCoreTests {
    /// A format with nothing but the core, so the checks below see no parser's rules.
    struct ToyError: InputError, Equatable {
        enum Kind: Hashable, Sendable { case tooBig, tooMany, broken }
        let failure: InputFailure<Kind>
        init(_ failure: InputFailure<Kind>) { self.failure = failure }
    }

    struct ToyLimits: InputLimits {
        enum Limit: String { case maxBytes, maxItems }
        typealias Failure = ToyError
        var maxBytes = 10
        var maxItems = 3

        func value(of limit: Limit) -> Int { limit == .maxBytes ? maxBytes : maxItems }
        func exceeding(_ limit: Limit) -> (kind: ToyError.Kind, remedy: String) {
            limit == .maxBytes ? (.tooBig, "Send a smaller file") : (.tooMany, "Send fewer items")
        }
    }

    // MARK: InputFailure: where and the message

    @Test func thePlaceListsLineColumnByteAndSubjectInThatOrder() {
        let failure = InputFailure(ToyError.Kind.broken, line: 3, column: 7, byteOffset: 120, subject: "Period", detail: "D.", advice: "A.")
        #expect(failure.place(subject: "<Period>") == "line 3, column 7, byte 120, <Period>")
        #expect(failure.place(subject: nil) == "line 3, column 7, byte 120")
        // A column means nothing without its line; an empty subject is left out.
        #expect(InputFailure(ToyError.Kind.broken, column: 7, byteOffset: 5, detail: "D.", advice: "A.").place(subject: "") == "byte 5")
        #expect(InputFailure(ToyError.Kind.broken, detail: "D.", advice: "A.").place(subject: nil).isEmpty)
    }

    @Test func theMessagePutsThePlaceWithTheKindOrAfterIt() {
        let placed = InputFailure(ToyError.Kind.broken, line: 2, byteOffset: 34, detail: "It broke.", advice: "Fix it.")
        #expect(placed.message("Toy rejected", kind: "broken") == "Toy rejected (broken, line 2, byte 34): It broke. Fix it.")
        #expect(placed.message("Toy rejected", kind: "broken", style: .afterKind) == "Toy rejected (broken) at line 2, byte 34: It broke. Fix it.")
        let nowhere = InputFailure(ToyError.Kind.broken, detail: "It broke.", advice: "Fix it.")
        #expect(nowhere.message("Toy rejected", kind: "broken") == "Toy rejected (broken): It broke. Fix it.")
        #expect(nowhere.message("Toy rejected", kind: "broken", style: .afterKind) == "Toy rejected (broken): It broke. Fix it.")
    }

    @Test func mappingTheKindKeepsThePlaceAndTheSentences() {
        let failure = InputFailure(ToyError.Kind.tooMany, line: 4, column: 2, byteOffset: 9, subject: "Ad", detail: "D.", advice: "A.")
        let mapped = failure.map { $0 == .tooMany ? "tooManyElements" : "other" }
        #expect(mapped == InputFailure("tooManyElements", line: 4, column: 2, byteOffset: 9, subject: "Ad", detail: "D.", advice: "A."))
    }

    // MARK: InputLimits: one check, one way of saying it was exceeded

    @Test func aLimitAdmitsUpToItsValueAndThrowsTheFormatsErrorPastIt() throws {
        let limits = ToyLimits()
        try limits.check(.maxItems, 3, detail: "unused")
        #expect(limits.admits(.maxItems, 3))
        #expect(!limits.admits(.maxItems, 4))
        #expect(throws: ToyError.self) { try limits.check(.maxItems, 4, detail: "More than 3 items.") }
        do {
            try limits.check(.maxItems, 4, line: 12, subject: "Item", detail: "More than 3 items.")
        } catch {
            #expect(error.failure.kind == .tooMany)
            #expect(error.failure.line == 12)
            #expect(error.failure.subject == "Item")
            #expect(error.failure.detail == "More than 3 items.")
            #expect(error.failure.advice == "Send fewer items; if it is legitimate, raise ToyLimits.maxItems (now 3).")
        }
    }

    @Test func thePlaceAndDetailAreOnlyWorkedOutWhenALimitIsExceeded() throws {
        var worked = 0
        func detail() -> String {
            worked += 1
            return "detail"
        }
        let limits = ToyLimits()
        try limits.check(.maxBytes, 10, subject: String(worked), detail: detail())
        #expect(limits.violation(.maxBytes, 10, detail: detail()) == nil)
        #expect(worked == 0)
        let error = limits.violation(.maxBytes, 11, detail: detail())
        #expect(worked == 1)
        #expect(error?.failure.kind == .tooBig)
        #expect(error?.failure.advice == "Send a smaller file; if it is legitimate, raise ToyLimits.maxBytes (now 10).")
    }

    @Test func aLimitAtItsLargestAdmitsEveryCount() throws {
        let limits = ToyLimits(maxBytes: .max, maxItems: 0)
        try limits.check(.maxBytes, .max, detail: "unused")
        #expect(limits.admits(.maxItems, 0))
        #expect(limits.violation(.maxItems, 1, detail: "One item is too many.")?.failure.kind == .tooMany)
    }

    // MARK: WarningLog

    @Test func warningsAreKeptUpToTheLimitThenCounted() {
        var log = WarningLog<String>(limit: 2)
        log.add("a")
        #expect(!log.isFull)
        log.add("b")
        #expect(log.isFull)
        log.add("c")
        log.countOmitted()
        #expect(log.items == ["a", "b"])
        #expect(log.omitted == 2)
        var none = WarningLog<String>(limit: 0)
        none.add("a")
        #expect(none.items.isEmpty && none.omitted == 1)
    }

    // MARK: HLS on the core

    @Test func everyHLSLimitThrowsItsKindAndNamesItsSetting() {
        let limits = HLSParseLimits()
        for limit in HLSParseLimits.Limit.allCases {
            let error = limits.exceeded(limit, line: 7, detail: "Over.")
            #expect(error.kind == limits.exceeding(limit).kind)
            #expect(error.line == 7)
            #expect(error.advice.hasSuffix("; if it is legitimate, raise HLSParseLimits.\(limit.rawValue) (now \(limits.value(of: limit)))."), "\(error)")
            #expect(error.description.hasPrefix("HLS playlist rejected (\(error.kind.rawValue), line 7): Over. "), "\(error)")
        }
    }

    @Test func hlsLimitErrorsFromTheParserUseTheCore() {
        let lines = expectFailure(media("#EXTINF:1,\na.ts\n#EXTINF:1,\nb.ts"), .tooManyLines, line: 5, limits: HLSParseLimits(maxLines: 4))
        #expect(lines?.advice == "Shorten the playlist (a smaller live window); if it is legitimate, raise HLSParseLimits.maxLines (now 4).")
        let attributes = expectFailure(
            media("#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x00000000000000000000000000000001\n#EXTINF:1,\na.ts"), .tooManyAttributes, line: 3,
            limits: HLSParseLimits(maxAttributesPerTag: 2))
        #expect(attributes?.tag == "EXT-X-KEY")
        #expect(attributes?.attribute == "IV")
        #expect(
            attributes?.description.hasPrefix("HLS playlist rejected (tooManyAttributes, line 3, EXT-X-KEY IV): ") == true, "\(String(describing: attributes))")
    }

    @Test func anHLSErrorReadsAsItAlwaysHas() {
        let error = HLSParseError(.invalidAttribute, line: 2, byteOffset: 40, tag: "EXT-X-KEY", attribute: "URI", detail: "D.", advice: "A.")
        #expect(error.description == "HLS playlist rejected (invalidAttribute, line 2, byte 40, EXT-X-KEY URI): D. A.")
        #expect(HLSParseError(.tooLarge, line: nil, detail: "D.", advice: "A.").description == "HLS playlist rejected (tooLarge): D. A.")
        #expect(error == HLSParseError(.invalidAttribute, line: 2, byteOffset: 40, tag: "EXT-X-KEY", attribute: "URI", detail: "D.", advice: "A."))
        #expect(error != HLSParseError(.invalidAttribute, line: 2, byteOffset: 40, tag: "EXT-X-KEY", attribute: "IV", detail: "D.", advice: "A."))
    }
}
