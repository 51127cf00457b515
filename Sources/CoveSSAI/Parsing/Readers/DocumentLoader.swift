/// The two steps every document goes through before interpretation: the byte guard, then the
/// XML parser into a tree.
enum DocumentLoader {
    static func load(_ bytes: [UInt8], limits: VMAPParseLimits) throws(VMAPParseError) -> XMLTreeBuilder.Result {
        let body = try InputGuard.check(bytes, limits: limits)
        return try XMLTreeBuilder.parse(body, limits: limits)
    }
}
