/// The entry point for fuzzers (libFuzzer, AFL, the mutation tests): any bytes either parse or
/// throw, and whatever parses must survive write → parse unchanged.
package enum HLSFuzz {
    package static func run(_ bytes: [UInt8]) {
        guard let playlist = try? HLSPlaylist.parse(bytes) else { return }
        let text = playlist.serialized()
        let reparsed: HLSPlaylist
        do {
            reparsed = try HLSPlaylist.parse(text)
        } catch {
            preconditionFailure("CoveHLS wrote a playlist it cannot read back: \(error)\n--- written ---\n\(text)")
        }
        guard reparsed == playlist else {
            preconditionFailure("CoveHLS round trip changed the playlist.\n--- written ---\n\(text)")
        }
    }
}
