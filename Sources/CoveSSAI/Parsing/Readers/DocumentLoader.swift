import CoveXML

/// The two steps every document goes through before interpretation: the byte guard, then the
/// XML parser into a tree (CoveXML), its refusals told as `VMAPParseError`s.
enum DocumentLoader {
    static func load(_ bytes: [UInt8], limits: VMAPParseLimits) throws(VMAPParseError) -> XMLTreeBuilder.Result {
        do {
            return try GuardedXML.load(bytes, limits: limits.xml)
        } catch {
            throw VMAPParseError(error)
        }
    }
}
