import CoveHLS
import Foundation
import Testing

@Suite("URI resolution")
struct URIResolutionTests {
    let base = URL(string: "https://cdn.example.com/show/hls/master.m3u8?token=abc")!

    @Test(arguments: [
        ("v0/index.m3u8", "https://cdn.example.com/show/hls/v0/index.m3u8"),
        ("../audio/en.m3u8", "https://cdn.example.com/show/audio/en.m3u8"),
        ("/abs/seg.ts", "https://cdn.example.com/abs/seg.ts"),
        ("//other.example/x.ts", "https://other.example/x.ts"),
        ("http://plain.example/a.ts", "http://plain.example/a.ts"),
        ("skd://key-id", "skd://key-id"),
        ("seg 1.ts", "https://cdn.example.com/show/hls/seg%201.ts"),
    ])
    func resolvesRelativeAndAbsoluteURIs(_ uri: String, _ expected: String) {
        #expect(HLSURI.resolve(uri, against: base)?.absoluteString == expected)
    }

    @Test func refusesWhatIsNotAURIWithoutTrapping() {
        #expect(HLSURI.resolve("", against: base) == nil)
        #expect(HLSURI.resolve("a\u{0}b", against: base) == nil)
        #expect(HLSURI.resolve("a\nb", against: base) == nil)
        #expect(HLSURI.resolve(String(repeating: "a", count: 20_000), against: base) == nil)
        for hostile in ["http://[::1", "http://%", "::::", "%%%", "http://a b/", "[", "?#?#", "\u{FFFF}", "http://例え.jp/ä"] {
            _ = HLSURI.resolve(hostile, against: base)
        }
    }
}

@Suite("Dates")
struct DateTests {
    @Test(arguments: [
        ("2024-05-01T08:00:00Z", 1_714_550_400.0),
        ("2024-05-01T08:00:00.000Z", 1_714_550_400.0),
        ("2024-05-01T10:00:00+02:00", 1_714_550_400.0),
        ("2024-05-01T10:00:00+0200", 1_714_550_400.0),
        ("2024-05-01T03:30:00-04:30", 1_714_550_400.0),
        ("2024-05-01T08:00:00.250z", 1_714_550_400.25),
        ("1970-01-01T00:00:00Z", 0.0),
        ("1969-12-31T23:59:59Z", -1.0),
        ("2000-02-29T12:00:00Z", 951_825_600.0),
    ])
    func parsesISO8601WithAZone(_ text: String, _ seconds: Double) throws {
        let date = try #require(HLSDateTime(text: text).date)
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_5)
    }

    @Test(arguments: [
        "", "2024-05-01", "2024-05-01T08:00:00", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T08:00:00+25:00",
        "2024-05-01T08:00:00Zjunk", "yesterday",
    ])
    func keepsTheTextWhenTheDateDoesNotParse(_ text: String) {
        let value = HLSDateTime(text: text)
        #expect(value.date == nil)
        #expect(value.text == text)
    }

    @Test func formatsDatesThatParseBack() throws {
        let date = Date(timeIntervalSince1970: 1_714_550_400.123)
        let value = HLSDateTime(date: date)
        #expect(value.text == "2024-05-01T08:00:00.123Z")
        #expect(abs(try #require(value.date).timeIntervalSince1970 - 1_714_550_400.123) < 0.000_5)
        #expect(HLSDateTime(date: Date(timeIntervalSince1970: -0.5)).text == "1969-12-31T23:59:59.500Z")
    }
}
