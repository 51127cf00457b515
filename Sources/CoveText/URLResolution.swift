/// A URI reference split into its five RFC 3986 components, and resolution of a relative
/// reference against a base (section 5.2). Written here rather than with Foundation's `URL` so
/// the module stays standard-library only and behaves the same on every platform: thumbnail
/// tracks name their images relative to the track, and the result must not depend on how a
/// platform URL type normalises or percent-encodes.
public struct URIReference: Sendable, Hashable, CustomStringConvertible {
    /// Without the `:`; nil for a relative reference.
    public let scheme: String?
    /// Without the leading `//`; nil when absent (an empty authority is `""`).
    public let authority: String?
    public let path: String
    /// Without the `?`; nil when absent.
    public let query: String?
    /// Without the `#`; nil when absent.
    public let fragment: String?

    public init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits `text` as RFC 3986 Appendix B does; every string splits, so this never fails.
    /// A scheme is only recognised when it is a valid one (a letter, then letters, digits, `+`,
    /// `-` or `.`), so a path such as `a:b` stays a path rather than a bogus scheme.
    public init(_ text: String) {
        var rest = Substring(text)
        var scheme: String?
        if let colon = rest.firstIndex(where: { $0 == ":" || $0 == "/" || $0 == "?" || $0 == "#" }),
            rest[colon] == ":", Self.isScheme(rest[..<colon])
        {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        var authority: String?
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? afterSlashes.endIndex
            authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        self.init(scheme: scheme, authority: authority, path: String(rest), query: query, fragment: fragment)
    }

    /// The reference recomposed (RFC 3986 section 5.3).
    public var description: String {
        var out = ""
        if let scheme { out += scheme + ":" }
        if let authority { out += "//" + authority }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    /// This reference resolved against `base` (RFC 3986 section 5.2.2, strict). `base` should
    /// be absolute; a relative base still composes paths, but leading `..` segments that would
    /// climb above it are dropped, as dot-segment removal does.
    public func resolved(against base: URIReference) -> URIReference {
        if let scheme {
            return URIReference(scheme: scheme, authority: authority, path: Self.removeDotSegments(path), query: query, fragment: fragment)
        }
        if let authority {
            return URIReference(scheme: base.scheme, authority: authority, path: Self.removeDotSegments(path), query: query, fragment: fragment)
        }
        if path.isEmpty {
            return URIReference(scheme: base.scheme, authority: base.authority, path: base.path, query: query ?? base.query, fragment: fragment)
        }
        let merged = path.hasPrefix("/") ? path : Self.merge(base: base, path)
        return URIReference(scheme: base.scheme, authority: base.authority, path: Self.removeDotSegments(merged), query: query, fragment: fragment)
    }

    /// `reference` resolved against `base` as a string; `reference` unchanged when there is no base.
    public static func resolve(_ reference: String, against base: String?) -> String {
        guard let base else { return reference }
        return URIReference(reference).resolved(against: URIReference(base)).description
    }

    /// Section 5.2.3.
    private static func merge(base: URIReference, _ path: String) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// Section 5.2.4, step by step as the RFC writes it, over bytes.
    static func removeDotSegments(_ path: String) -> String {
        var input = Array(path.utf8)
        var start = 0
        var output: [UInt8] = []
        let dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")
        func hasPrefix(_ prefix: [UInt8]) -> Bool {
            input.count - start >= prefix.count && input[start..<(start + prefix.count)].elementsEqual(prefix)
        }
        func rest(is value: [UInt8]) -> Bool { input[start...].elementsEqual(value) }
        func dropLastSegment() {
            if let last = output.lastIndex(of: slash) { output.removeSubrange(last...) } else { output.removeAll() }
        }
        while start < input.count {
            if hasPrefix([dot, dot, slash]) {
                start += 3
            } else if hasPrefix([dot, slash]) {
                start += 2
            } else if hasPrefix([slash, dot, slash]) {
                start += 2
            } else if rest(is: [slash, dot]) {
                start += 1
                input[start] = slash
            } else if hasPrefix([slash, dot, dot, slash]) {
                start += 3
                dropLastSegment()
            } else if rest(is: [slash, dot, dot]) {
                start += 2
                input[start] = slash
                dropLastSegment()
            } else if rest(is: [dot]) || rest(is: [dot, dot]) {
                start = input.count
            } else {
                var end = start + (input[start] == slash ? 1 : 0)
                while end < input.count, input[end] != slash { end += 1 }
                output.append(contentsOf: input[start..<end])
                start = end
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
