import CoveTesting
import CoveText
import Testing

/// Parses text the test expects to be valid WebVTT.
func parse(_ text: String, options: WebVTTParseOptions = .init()) throws -> WebVTTDocument {
    try WebVTT.parse(text, options: options)
}

/// Asserts that parsing fails with `kind` on `line`, and returns the error for further checks.
@discardableResult
func expectFailure(
    _ bytes: [UInt8], _ kind: WebVTTParseError.Kind, line: Int?, options: WebVTTParseOptions = .init(),
    sourceLocation: SourceLocation = #_sourceLocation
) -> WebVTTParseError? {
    do {
        let document = try WebVTT.parse(bytes, options: options)
        Issue.record("expected \(kind.name) on line \(line.map(String.init) ?? "nil"), but parsed \(document.cues.count) cues", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
        #expect(!error.detail.isEmpty && !error.advice.isEmpty, sourceLocation: sourceLocation)
        return error
    }
}

@discardableResult
func expectFailure(
    _ text: String, _ kind: WebVTTParseError.Kind, line: Int?, options: WebVTTParseOptions = .init(),
    sourceLocation: SourceLocation = #_sourceLocation
) -> WebVTTParseError? {
    expectFailure(Array(text.utf8), kind, line: line, options: options, sourceLocation: sourceLocation)
}

/// Runs the fuzz invariants (cue sanity, lookup, markup, round trip, thumbnails) and records
/// any violation as a test issue instead of trapping.
func expectInvariants(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if let violation = WebVTTFuzz.check(Array(text.utf8)) {
        Issue.record("\(violation)\n--- input ---\n\(text)", sourceLocation: sourceLocation)
    }
}

func seconds(_ cues: [WebVTTCue]) -> [Double] { cues.map(\.startSeconds) }
