import CoveCore
import CoveTesting
import Foundation
import Testing

/// The strict JSON parser: the grammar exactly, with errors that say what and where.
@Suite("JSON parser")
struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func validDocuments() throws {
        #expect(
            try parse(#"  {"a" : [1, -2, 3.5, -0.25e2, 1E+2, 0, -0], "b": {}, "c": [], "d": "", "e": false, "f": null}  "#) == [
                "a": [1, -2, 3.5, -25.0, 100.0, 0, 0], "b": [:], "c": [], "d": "", "e": false, "f": nil,
            ])
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == "\"\\/\u{08}\u{0C}\n\r\t")
        #expect(try parse(#""\u00e9\u20AC\ud83c\udfac""#) == "é€🎬")
        #expect(try parse(#""raw é€🎬""#) == "raw é€🎬")
        #expect(try parse("57838016001") == .int(57_838_016_001))
        #expect(try parse("9223372036854775807") == .int(.max))
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        // Duplicate members: the last wins, as in browsers.
        #expect(try parse(#"{"a": 1, "a": 2}"#) == ["a": 2])
    }

    @Test(arguments: [
        (#"{"id": "1",}"#, "trailing comma before '}'"),
        (#"[1, 2,]"#, "trailing comma before ']'"),
        (#"{'id': '1'}"#, "expected a quoted member name"),
        (#"{"id": NaN}"#, "unexpected 'N'"),
        (#"{"id": "1"#, "unterminated string"),
        ("{\"id\": \"a\u{01}b\"}", "unescaped control character"),
        (#"{"id": "\x"}"#, "invalid escape \\x"),
        (#"{"id": 01}"#, "leading zeros"),
        (#"{"id" "1"}"#, "expected ':'"),
        (#"{"id": "1"} trailing"#, "after the JSON value"),
        (#"{"id": .5}"#, "unexpected '.'"),
        (#"{"id": +1}"#, "unexpected '+'"),
        (#"{"id": 1.}"#, "digits after '.'"),
        (#"{"id": 1e}"#, "exponent"),
        (#"{"id": -}"#, "digits after '-'"),
        (#"{"id": "1"}}"#, "after the JSON value"),
        (#""\ud800""#, "lone high surrogate"),
        (#""\udc00""#, "lone low surrogate"),
        (#""\ud800\u0041""#, "not followed by a low surrogate"),
        (#""\u12G4""#, "four hex digits"),
        (#"1e999"#, "out of range"),
        (#"tru"#, "expected a value"),
        (#"// comment"#, "unexpected '/'"),
        ("", "empty"),
        ("   ", "empty"),
        (#"[1 2]"#, "expected ',' or ']'"),
        (#"{"a": 1 "b": 2}"#, "expected ',' or '}'"),
    ])
    func invalidDocumentsSayWhatIsWrongAndWhere(text: String, fragment: String) {
        do {
            let value = try parse(text)
            Issue.record("accepted \(text) as \(value)")
        } catch {
            #expect("\(error)".contains(fragment), "\(text): \(error)")
            if !text.trimmingCharacters(in: .whitespaces).isEmpty { #expect("\(error)".contains("at byte"), "\(error)") }
        }
    }

    @Test func depthIsBoundedBeforeRecursion() {
        #expect(throws: JSONParseError.tooDeep(limit: 64)) { try JSONValue.parse(Array(String(repeating: "[", count: 100_000).utf8)) }
        #expect(throws: JSONParseError.tooDeep(limit: 3)) { try JSONValue.parse(Array(#"{"a": {"b": {"c": {}}}}"#.utf8), limits: JSONLimits(maxDepth: 3)) }
        #expect((try? JSONValue.parse(Array(#"{"a": {"b": {"c": 1}}}"#.utf8), limits: JSONLimits(maxDepth: 3))) != nil)
    }

    @Test func invalidUTF8InsideStringsIsRejected() {
        #expect(throws: JSONParseError.invalidUTF8) { try JSONValue.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParseError.invalidUTF8) { try JSONValue.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
    }

    /// Fuzz entry: generated values round-trip, and every mutation of their bytes parses or throws.
    @Test func generatedDocumentsRoundTripAndMutationsNeverCrash() async throws {
        var generator = SeededRandom(seed: 0xC0FE)
        func value(_ depth: Int) -> JSONValue {
            switch generator.next() % (depth > 4 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(generator.next() % 2 == 0)
            case 2: return .int(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 60))
            case 3: return .double(Double(Int64(bitPattern: generator.next()) >> 20) / 1024)
            case 4:
                return .string(String((0..<(generator.next() % 12)).map { _ in ["a", "é", "\"", "\\", "\n", "🎬", "\u{01}", "/"][Int(generator.next() % 8)] }))
            case 5: return .array((0..<(generator.next() % 5)).map { _ in value(depth + 1) })
            default: return .object(Dictionary((0..<(generator.next() % 5)).map { i in ("k\(i)\(generator.next() % 3)", value(depth + 1)) }) { _, new in new })
            }
        }
        for iteration in 0..<500 {
            if iteration.isMultiple(of: 10) { await Task.yield() }
            let original = value(0)
            let bytes = Array(original.serialized().utf8)
            let again = try JSONValue.parse(bytes)
            #expect(again == original.normalizingIntegralDoubles, "\(original.serialized())")
            for _ in 0..<10 {
                var mutated = bytes
                if mutated.isEmpty { continue }
                let position = Int(generator.next() % UInt64(mutated.count))
                switch Int(generator.next() % 3) {
                case 0: mutated[position] = UInt8(truncatingIfNeeded: generator.next())
                case 1: mutated.remove(at: position)
                default: mutated.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                }
                _ = try? JSONValue.parse(mutated)
            }
        }
    }
}

extension JSONValue {
    /// Doubles such as 3.0 serialise as `3` and come back as `.int(3)`: equal in value, not in case.
    /// The expected round trip is the original with those doubles turned into ints.
    fileprivate var normalizingIntegralDoubles: JSONValue {
        switch self {
        case .double(let d) where d == d.rounded() && abs(d) < 9.2e18: return .int(Int64(d))
        case .array(let a): return .array(a.map(\.normalizingIntegralDoubles))
        case .object(let o): return .object(o.mapValues(\.normalizingIntegralDoubles))
        default: return self
        }
    }
}
