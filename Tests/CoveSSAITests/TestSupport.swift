import CoveSSAI
import Testing

/// Asserts that `VMAP.parse` refuses the bytes with `kind`, and returns the error for more checks.
@discardableResult
func expectVMAPFailure(
    _ bytes: [UInt8], _ kind: VMAPParseError.Kind, limits: VMAPParseLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
) -> VMAPParseError? {
    do {
        let document = try VMAP.parse(bytes, limits: limits)
        Issue.record("expected \(kind), but parsed \(document.adBreaks.count) break(s)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(!error.description.isEmpty, sourceLocation: sourceLocation)
        return error
    }
}

@discardableResult
func expectVMAPFailure(
    _ text: String, _ kind: VMAPParseError.Kind, limits: VMAPParseLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
) -> VMAPParseError? {
    expectVMAPFailure(Array(text.utf8), kind, limits: limits, sourceLocation: sourceLocation)
}

/// Seconds written as text, read exactly (so expectations show the values documents use).
func seconds(_ text: String) throws -> AdTime {
    try AdTime.parseSeconds(text)
}

/// A clock time written as text.
func clock(_ text: String) throws -> AdTime {
    try AdTime.parse(text)
}

/// SplitMix64: a tiny deterministic generator, so fuzz runs repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
