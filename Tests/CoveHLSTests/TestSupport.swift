import CoveHLS
import CoveTesting
import Testing

/// Parses text the tests expect to be valid, returning the media playlist or recording why not.
func parseMedia(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> MediaPlaylist {
    let playlist = try HLSPlaylist.parse(text)
    return try #require(playlist.media, "expected a media playlist", sourceLocation: sourceLocation)
}

func parseMaster(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> MasterPlaylist {
    let playlist = try HLSPlaylist.parse(text)
    return try #require(playlist.master, "expected a master playlist", sourceLocation: sourceLocation)
}

/// Asserts that parsing fails with `kind` on `line`, and returns the error for further checks.
@discardableResult
func expectFailure(
    _ bytes: [UInt8], _ kind: HLSParseError.Kind, line: Int?, limits: HLSParseLimits = .init(),
    sourceLocation: SourceLocation = #_sourceLocation
) -> HLSParseError? {
    do {
        let playlist = try HLSPlaylist.parse(bytes, limits: limits)
        Issue.record("expected \(kind) on line \(line.map(String.init) ?? "nil"), but parsed: \(playlist)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
        #expect(!error.description.isEmpty, sourceLocation: sourceLocation)
        return error
    }
}

@discardableResult
func expectFailure(
    _ text: String, _ kind: HLSParseError.Kind, line: Int?, limits: HLSParseLimits = .init(),
    sourceLocation: SourceLocation = #_sourceLocation
) -> HLSParseError? {
    expectFailure(Array(text.utf8), kind, line: line, limits: limits, sourceLocation: sourceLocation)
}

/// Asserts that `playlist` is written as text that parses back to an equal value, and returns
/// that text. `source`, when given, is shown with any failure.
@discardableResult
func expectRoundTrip(_ playlist: HLSPlaylist, source: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let written = playlist.serialized()
    let shown = (source.map { $0 + "\n--- written ---\n" } ?? "") + written
    do {
        let reparsed = try HLSPlaylist.parse(written)
        #expect(reparsed == playlist, "round trip changed:\n\(shown)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("wrote an unreadable playlist: \(error)\n\(shown)", sourceLocation: sourceLocation)
    }
    return written
}

/// A media playlist around `body` lines, so tests only spell out what they are about.
func media(_ body: String, target: Int = 10) -> String {
    "#EXTM3U\n#EXT-X-TARGETDURATION:\(target)\n" + body + "\n"
}
