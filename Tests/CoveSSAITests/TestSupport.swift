import CoveSSAI
import CoveTesting
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
