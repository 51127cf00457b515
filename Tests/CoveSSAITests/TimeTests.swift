import CoveSSAI
import Testing

@Suite("Time values")
struct TimeTests {
    @Test(arguments: [
        ("00:00:00", Int64(0)),
        ("00:00:10.000", 10_000_000_000),
        ("00:00:05.9392", 5_939_200_000),
        ("01:02:03.5", 3_723_500_000_000),
        ("0:00:01", 1_000_000_000),
        ("100:00:00", 360_000_000_000_000),
        ("  00:00:30.0666666+00:00 ", 30_066_666_600),
        ("00:00:01Z", 1_000_000_000),
        ("00:00:01.123456789123", 1_123_456_789),
    ])
    func clockTimes(_ text: String, _ nanoseconds: Int64) throws {
        #expect(try AdTime.parse(text).nanoseconds == nanoseconds)
    }

    @Test(arguments: [
        ("", AdTimeError.Kind.empty),
        ("-00:00:01", .negative),
        ("00:00", .malformed),
        ("00:00:00:00", .malformed),
        ("aa:bb:cc", .malformed),
        ("00:0:01", .malformed),
        ("00:00:1", .malformed),
        ("00:60:00", .outOfRange),
        ("00:00:60", .outOfRange),
        ("00:00:05.", .malformed),
        ("00:00:05.x", .malformed),
        ("+00:00:05", .malformed),
        ("00:00:05+01:00", .malformed),
        ("00:00:05 garbage", .malformed),
        ("999999999999999999:00:00", .overflow),
        ("9999999999999999999999:00:00", .overflow),
        ("1e3", .malformed),
        ("nan", .malformed),
    ])
    func badClockTimes(_ text: String, _ kind: AdTimeError.Kind) {
        #expect(throws: AdTimeError(kind, value: XMLTrim.trim(text))) { try AdTime.parse(text) }
    }

    @Test func secondsAreExact() throws {
        #expect(try AdTime.parseSeconds("24.0574").nanoseconds == 24_057_400_000)
        #expect(try AdTime.parseSeconds("7").nanoseconds == 7_000_000_000)
        #expect(try AdTime.parseSeconds(" 0.000000001 ").nanoseconds == 1)
        #expect(throws: AdTimeError.self) { try AdTime.parseSeconds("-1") }
        #expect(throws: AdTimeError.self) { try AdTime.parseSeconds("1e5") }
        #expect(throws: AdTimeError.self) { try AdTime.parseSeconds("inf") }
        #expect(throws: AdTimeError.self) { try AdTime.parseSeconds(".5") }
        #expect(throws: AdTimeError.self) { try AdTime.parseSeconds("99999999999999999") }
    }

    @Test func conversionsAndDescription() throws {
        let time = try AdTime.parse("00:01:05.9392")
        #expect(time.seconds == 65.9392)
        #expect(time.milliseconds == 65_939)
        #expect(try AdTime.parse("00:00:00.0005").milliseconds == 1)
        #expect(time.description == "00:01:05.9392")
        #expect(AdTime.zero.description == "00:00:00")
        #expect(AdTime(nanoseconds: -1) == nil)
        #expect(AdTime(milliseconds: 1500)?.nanoseconds == 1_500_000_000)
        #expect(AdTime(milliseconds: .max) == nil)
        #expect(AdTime(nanoseconds: .max)!.adding(AdTime(nanoseconds: 1)!) == nil)
        #expect(try AdTime.parse(time.description) == time)
    }

    @Test(arguments: [
        ("start", VMAPTimeOffset.start),
        ("START", .start),
        ("end", .end),
        ("25%", .percentage(25)),
        ("12.5%", .percentage(12.5)),
        ("100%", .percentage(100)),
        ("#1", .position(1)),
        ("#12", .position(12)),
        (" 00:00:10.000 ", .time(AdTime(milliseconds: 10_000)!)),
    ])
    func breakOffsets(_ text: String, _ expected: VMAPTimeOffset) throws {
        #expect(try VMAPTimeOffset.parse(text) == expected)
    }

    @Test(arguments: [
        ("", AdTimeError.Kind.empty),
        ("-00:00:01", .negative),
        ("101%", .outOfRange),
        ("-5%", .negative),
        ("%", .malformed),
        ("1e2%", .malformed),
        ("nan%", .malformed),
        ("#0", .outOfRange),
        ("#-1", .negative),
        ("#", .malformed),
        ("#99999999999", .overflow),
        ("middle", .malformed),
    ])
    func badBreakOffsets(_ text: String, _ kind: AdTimeError.Kind) {
        do {
            let offset = try VMAPTimeOffset.parse(text)
            Issue.record("expected \(kind), got \(offset)")
        } catch {
            #expect(error.kind == kind, "\(error)")
            #expect(!error.description.isEmpty)
        }
    }

    @Test func vastOffsets() throws {
        #expect(try VASTOffset.parse("00:00:05") == .time(AdTime(milliseconds: 5000)!))
        #expect(try VASTOffset.parse("75%") == .percentage(75))
        #expect(throws: AdTimeError.self) { try VASTOffset.parse("5") }
        #expect(throws: AdTimeError.self) { try VASTOffset.parse("-10%") }
    }
}

/// The parsers trim XML white space before quoting a value in an error.
enum XMLTrim {
    static func trim(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
