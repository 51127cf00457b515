import CoveInput

/// A small, strict XML reader in Swift that builds the same `XMLTreeElement` tree as `XMLTreeBuilder`,
/// for documents where Foundation's `XMLParser` costs too much per element (a live DASH MPD is tens of
/// thousands of `<S/>` elements; `XMLParser` builds a dictionary and several strings for each, about a
/// microsecond, before Cove sees it).
///
/// It reads what the guard lets through (`XMLInputGuard`: UTF-8, no NUL, no DOCTYPE or ENTITY): elements,
/// attributes in single or double quotes, text, CDATA, comments and processing instructions, the five
/// predefined entities and character references. Everything else XML forbids is refused as
/// `malformedXML` with its line and column: a mismatched or missing end tag, `<` or an unknown entity in
/// an attribute value, a duplicate attribute, content after the root, a character reference to a
/// character XML does not allow. The limits are checked while reading, as the builder does.
/// Namespaces are not resolved (elements are matched by local name), as with the builder.
public enum XMLScanner {
    /// `packingLeavesOf`: local names of elements whose empty child elements are kept in
    /// `XMLTreeElement.packedLeaves` instead of `children` (their order among other children is not kept).
    public static func parse(
        _ bytes: ArraySlice<UInt8>, limits: XMLLimits, packingLeavesOf packing: Set<String> = []
    ) throws(XMLReadError) -> XMLTreeBuilder.Result {
        try bytes.withUnsafeBufferPointer { buffer throws(XMLReadError) in
            var scanner = Scanner(bytes: buffer, source: bytes, limits: limits, packing: packing)
            return XMLTreeBuilder.Result(root: try scanner.document(), recoverableProblem: false)
        }
    }

    private struct OpenElement {
        let name: String
        let attributes: [XMLAttribute]
        let scope: NamespaceScope?
        let line: Int
        var children: [XMLTreeNode] = []
        var textLength = 0
        var pendingText = ""
        /// Empty children go here (`packingLeavesOf`).
        var packed: XMLPackedLeaves?
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let limits: XMLLimits
        let maxDepth: Int
        var position = 0
        var line = 1
        var lineStart = 0
        var stack: [OpenElement] = []
        var elementCount = 0
        let packing: Set<String>
        /// The start tag being read: its attributes gather here, then are copied to the element (or, for a
        /// packed leaf, appended to its parent's packed storage without an array of their own).
        var scratch: [XMLAttribute] = []
        /// The packed-leaf fast path's attributes: name and value ranges of `bytes`.
        var rawScratch: [(name: Range<Int>, value: Range<Int>)] = []

        /// The document `bytes` points into: packed leaves keep ranges of it.
        let source: ArraySlice<UInt8>

        init(bytes: UnsafeBufferPointer<UInt8>, source: ArraySlice<UInt8>, limits: XMLLimits, packing: Set<String>) {
            self.bytes = bytes
            self.source = source
            self.limits = limits
            self.maxDepth = limits.effectiveMaxDepth
            self.packing = packing
        }

        // MARK: Document

        mutating func document() throws(XMLReadError) -> XMLTreeElement {
            var root: XMLTreeElement?
            while position < bytes.count {
                if stack.isEmpty {
                    // Prolog or epilog: white space, comments and processing instructions only.
                    if isSpace(bytes[position]) { advance(1); continue }
                    guard bytes[position] == lt else { throw malformed(root == nil ? "Text before the root element." : "Text after the root element.") }
                    if starts("<?") { try skipProcessingInstruction(); continue }
                    if starts("<!--") { try skipComment(); continue }
                    guard root == nil else { throw malformed("A second root element.") }
                    if let closed = try startTag() { root = closed }
                } else if bytes[position] == lt {
                    if starts("</") {
                        if let closed = try endTag() { root = closed }
                    } else if starts("<!--") {
                        try skipComment()
                    } else if starts("<![CDATA[") {
                        try cdata()
                    } else if starts("<?") {
                        try skipProcessingInstruction()
                    } else if let closed = try startTag() {
                        root = closed
                    }
                } else {
                    try text()
                }
            }
            guard stack.isEmpty, let root else {
                throw XMLReadError(
                    .malformedXML, line: line, element: stack.last?.name,
                    detail: stack.isEmpty ? "The document has no root element; it is not XML." : "The document ends inside an open element; it is truncated.",
                    advice: "Check that the whole response arrived and that the server returned XML, not an error page."
                )
            }
            return root
        }

        // MARK: Tags

        /// A child of a packing element written `<name a="v" …/>` with plain values (no reference, no line
        /// end or tab, no `xmlns`): read straight into the parent's packed leaves, no string made. Anything
        /// else returns false with the cursor unmoved, for `startTag` to read.
        mutating func packedLeaf() throws(XMLReadError) -> Bool {
            guard let parent = stack.indices.last, stack[parent].packed != nil else { return false }
            let saved = (position, line, lineStart)
            var cursor = position + 1
            let nameStart = cursor
            while cursor < bytes.count, !Self.endsName(bytes[cursor]) { cursor += 1 }
            guard cursor > nameStart, !Self.badNameStart(bytes[nameStart]) else { return false }
            let nameEnd = cursor
            rawScratch.removeAll(keepingCapacity: true)
            while true {
                var spaced = false
                while cursor < bytes.count, isSpace(bytes[cursor]) {
                    if bytes[cursor] == 0x0A { line += 1; lineStart = cursor + 1 }
                    cursor += 1
                    spaced = true
                }
                guard cursor + 1 < bytes.count else { (position, line, lineStart) = saved; return false }
                if bytes[cursor] == slash, bytes[cursor + 1] == gt { cursor += 2; break }
                guard spaced, bytes[cursor] != gt else { (position, line, lineStart) = saved; return false }
                let keyStart = cursor
                while cursor < bytes.count, !Self.endsName(bytes[cursor]) { cursor += 1 }
                let keyEnd = cursor
                guard keyEnd > keyStart, !Self.badNameStart(bytes[keyStart]), cursor + 1 < bytes.count, bytes[cursor] == eq,
                    bytes[cursor + 1] == quote || bytes[cursor + 1] == apostrophe,
                    !(keyEnd - keyStart >= 5 && bytes[keyStart] == UInt8(ascii: "x") && bytes[keyStart + 1] == UInt8(ascii: "m")
                        && bytes[keyStart + 2] == UInt8(ascii: "l")
                        && bytes[keyStart + 3] == UInt8(ascii: "n") && bytes[keyStart + 4] == UInt8(ascii: "s"))
                else { (position, line, lineStart) = saved; return false }
                let delimiter = bytes[cursor + 1]
                cursor += 2
                let valueStart = cursor
                while cursor < bytes.count, bytes[cursor] != delimiter {
                    let byte = bytes[cursor]
                    if byte == lt || byte == amp || byte == 0x09 || byte == 0x0A || byte == 0x0D { (position, line, lineStart) = saved; return false }
                    cursor += 1
                }
                guard cursor < bytes.count, limits.admits(.maxAttributeLength, cursor - valueStart) else { (position, line, lineStart) = saved; return false }
                let valueEnd = cursor
                cursor += 1
                for existing in rawScratch where Self.same(bytes, existing.name, keyStart..<keyEnd) { (position, line, lineStart) = saved; return false }
                rawScratch.append((keyStart..<keyEnd, valueStart..<valueEnd))
                guard limits.admits(.maxAttributesPerElement, rawScratch.count) else { (position, line, lineStart) = saved; return false }
            }
            elementCount += 1
            try limits.check(
                .maxElements, elementCount, line: line, subject: String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self),
                detail: "The document has more than \(limits.maxElements) elements.")
            flushText(beforeChildElement: true)
            stack[parent].packed!.beginLeaf(name: nameStart..<nameEnd)
            for (name, value) in rawScratch { stack[parent].packed!.addAttribute(name: name, value: value) }
            stack[parent].packed!.endLeaf()
            position = cursor
            return true
        }

        static func endsName(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == slash || byte == gt || byte == eq || byte == quote || byte == apostrophe
                || byte == lt || byte == amp
        }

        static func badNameStart(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }

        static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
            guard a.count == b.count else { return false }
            for offset in 0..<a.count where bytes[a.lowerBound + offset] != bytes[b.lowerBound + offset] { return false }
            return true
        }

        /// Reads `<name attributes…>` or `<name …/>`; returns the root when it was an empty root element.
        mutating func startTag() throws(XMLReadError) -> XMLTreeElement? {
            if try packedLeaf() { return nil }
            let tagLine = line
            advance(1)
            let name = try readName(what: "element name")
            elementCount += 1
            try limits.check(.maxElements, elementCount, line: tagLine, subject: name, detail: "The document has more than \(limits.maxElements) elements.")
            try limits.check(.maxDepth, stack.count + 1, line: tagLine, subject: name, detail: "Elements nest deeper than \(maxDepth) levels.")
            scratch.removeAll(keepingCapacity: true)
            var declarations: [String: String] = [:]
            while true {
                let hadSpace = skipSpace()
                guard position < bytes.count else { throw malformed("The document ends inside a start tag.") }
                let byte = bytes[position]
                if byte == gt {
                    advance(1)
                    open(name: name, attributes: Array(scratch), declarations: declarations, line: tagLine)
                    return nil
                }
                if byte == slash {
                    guard position + 1 < bytes.count, bytes[position + 1] == gt else { throw malformed("'/' inside a start tag is not followed by '>'.") }
                    advance(2)
                    if declarations.isEmpty, let last = stack.indices.last, stack[last].packed != nil {
                        flushText(beforeChildElement: true)
                        stack[last].packed!.append(name: name, attributes: scratch)
                        return nil
                    }
                    open(name: name, attributes: Array(scratch), declarations: declarations, line: tagLine)
                    return close()
                }
                guard hadSpace else { throw malformed("Attributes must be separated by white space.") }
                let key = try readName(what: "attribute name")
                skipSpace()
                guard position < bytes.count, bytes[position] == eq else { throw malformed("An attribute has no '=' after its name.") }
                advance(1)
                skipSpace()
                let value = try attributeValue(element: name)
                for existing in scratch where existing.name == key { throw malformed("An attribute appears twice in one start tag.") }
                scratch.append(XMLAttribute(name: key, value: value))
                try limits.check(
                    .maxAttributesPerElement, scratch.count, line: tagLine, subject: name,
                    detail: "An element has \(scratch.count) attributes; the limit is \(limits.maxAttributesPerElement).")
                if key == "xmlns" {
                    declarations[""] = value
                } else if key.utf8.count > 6, key.hasPrefix("xmlns:") {
                    declarations[String(key.dropFirst(6))] = value
                }
            }
        }

        mutating func open(name: String, attributes: [XMLAttribute], declarations: [String: String], line: Int) {
            let inherited = stack.last?.scope
            let scope = declarations.isEmpty ? inherited : NamespaceScope(parent: inherited, declarations: declarations)
            flushText(beforeChildElement: true)
            var element = OpenElement(name: name, attributes: attributes, scope: scope, line: line)
            if !packing.isEmpty, packing.contains(Self.localName(name)) { element.packed = XMLPackedLeaves(source: source) }
            stack.append(element)
        }

        static func localName(_ name: String) -> String {
            guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name }
            return String(name[name.utf8.index(after: colon)...])
        }

        /// Closes the innermost element; returns it when it was the root.
        mutating func close() -> XMLTreeElement? {
            flushText()
            let open = stack.removeLast()
            let element = XMLTreeElement(
                name: open.name, attributeList: open.attributes, scope: open.scope, line: open.line, children: open.children, packedLeaves: open.packed)
            if stack.isEmpty { return element }
            stack[stack.count - 1].children.append(.element(element))
            return nil
        }

        mutating func endTag() throws(XMLReadError) -> XMLTreeElement? {
            advance(2)
            let name = try readName(what: "end tag name")
            skipSpace()
            guard position < bytes.count, bytes[position] == gt else { throw malformed("An end tag is not closed by '>'.") }
            advance(1)
            guard let open = stack.last else { throw malformed("An end tag without a start tag.") }
            guard open.name == name else { throw malformed("The end tag </\(name.prefix(64))> does not match <\(open.name.prefix(64))>.") }
            return close()
        }

        // MARK: Text

        mutating func text() throws(XMLReadError) {
            let start = position
            var decoded: [UInt8]?
            while position < bytes.count, bytes[position] != lt {
                let byte = bytes[position]
                if byte == amp {
                    if decoded == nil { decoded = Array(bytes[start..<position]) }
                    try appendReference(to: &decoded!)
                    continue
                }
                if byte == 0x3E, position >= 2, bytes[position - 1] == 0x5D, bytes[position - 2] == 0x5D {
                    throw malformed("']]>' is not allowed in text.")
                }
                if byte == 0x0D {
                    // End-of-line handling (XML 1.0 §2.11): CR LF and a lone CR read as LF.
                    if decoded == nil { decoded = Array(bytes[start..<position]) }
                    decoded!.append(0x0A)
                    advance(position + 1 < bytes.count && bytes[position + 1] == 0x0A ? 2 : 1)
                    continue
                }
                if decoded != nil { decoded!.append(byte) }
                step()
            }
            let piece =
                decoded.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            try appendText(piece, isCDATA: false)
        }

        mutating func cdata() throws(XMLReadError) {
            advance(9)
            let start = position
            while position + 2 < bytes.count, !(bytes[position] == 0x5D && bytes[position + 1] == 0x5D && bytes[position + 2] == gt) { advance(1) }
            guard position + 2 < bytes.count else { throw malformed("A CDATA section is not closed.") }
            // CDATA as written, CRs included: what libxml2 (Foundation's XMLParser) gives too.
            let piece = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            advance(3)
            try appendText(piece, isCDATA: true)
        }

        mutating func appendText(_ piece: String, isCDATA: Bool) throws(XMLReadError) {
            guard !stack.isEmpty else { return }
            let last = stack.count - 1
            let total = stack[last].textLength + piece.utf8.count
            try limits.check(.maxTextLength, total, line: line, subject: stack[last].name, detail: "An element's text exceeds \(limits.maxTextLength) bytes.")
            stack[last].textLength = total
            if isCDATA {
                flushText()
                stack[last].children.append(.text(piece, isCDATA: true))
            } else {
                stack[last].pendingText += piece
            }
        }

        /// As `XMLTreeBuilder` does: white space that only separates child elements is dropped.
        mutating func flushText(beforeChildElement: Bool = false) {
            guard let last = stack.indices.last, !stack[last].pendingText.isEmpty else { return }
            let piece = stack[last].pendingText
            stack[last].pendingText = ""
            if piece.utf8.allSatisfy({ isSpace($0) }) {
                if beforeChildElement { return }
                if case .element = stack[last].children.last { return }
            }
            stack[last].children.append(.text(piece, isCDATA: false))
        }

        // MARK: Values

        mutating func attributeValue(element: String) throws(XMLReadError) -> String {
            guard position < bytes.count, bytes[position] == quote || bytes[position] == apostrophe else {
                throw malformed("An attribute value is not quoted.")
            }
            let delimiter = bytes[position]
            advance(1)
            let start = position
            var decoded: [UInt8]?
            while position < bytes.count, bytes[position] != delimiter {
                let byte = bytes[position]
                if byte == lt { throw malformed("'<' inside an attribute value.") }
                if byte == amp {
                    if decoded == nil { decoded = Array(bytes[start..<position]) }
                    try appendReference(to: &decoded!)
                    continue
                }
                // End-of-line handling, then attribute-value normalisation (XML 1.0 §2.11, §3.3.3): CR LF is one
                // line end, and every white space character becomes a space.
                if byte == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A {
                    if decoded == nil { decoded = Array(bytes[start..<position]) }
                    advance(1)
                    continue
                }
                let normalized: UInt8 = (byte == 0x09 || byte == 0x0A || byte == 0x0D) ? 0x20 : byte
                if normalized != byte, decoded == nil { decoded = Array(bytes[start..<position]) }
                if decoded != nil { decoded!.append(normalized) }
                step()
                try limits.check(
                    .maxAttributeLength, position - start, line: line, subject: element,
                    detail: "An attribute value is longer than \(limits.maxAttributeLength) bytes.")
            }
            guard position < bytes.count else { throw malformed("The document ends inside an attribute value.") }
            let value =
                decoded.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            advance(1)
            return value
        }

        /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` or `&#xH;` at the cursor into `out`.
        mutating func appendReference(to out: inout [UInt8]) throws(XMLReadError) {
            let start = position + 1
            var end = start
            while end < bytes.count, end - start < 12, bytes[end] != semicolon { end += 1 }
            guard end < bytes.count, bytes[end] == semicolon, end > start else {
                throw malformed("An '&' that does not start an entity or character reference.")
            }
            let name = UnsafeBufferPointer(rebasing: bytes[start..<end])
            switch Array(name) {
            case Array("amp".utf8): out.append(amp)
            case Array("lt".utf8): out.append(lt)
            case Array("gt".utf8): out.append(gt)
            case Array("quot".utf8): out.append(quote)
            case Array("apos".utf8): out.append(apostrophe)
            default:
                guard name.first == UInt8(ascii: "#"), name.count >= 2 else { throw malformed("An unknown entity (only the five XML predefines are allowed).") }
                let hex = name[1] == UInt8(ascii: "x")
                let digits = name[(hex ? 2 : 1)...]
                guard !digits.isEmpty, let value = UInt32(String(decoding: UnsafeBufferPointer(rebasing: digits), as: UTF8.self), radix: hex ? 16 : 10),
                    let scalar = Unicode.Scalar(value), Self.isXMLChar(value)
                else { throw malformed("A character reference to a character XML does not allow.") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            advance(end + 1 - position)
        }

        static func isXMLChar(_ value: UInt32) -> Bool {
            value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                || (0x10000...0x10FFFF).contains(value)
        }

        /// A name: anything up to white space, '/', '>', '=' or a quote; never empty, never starting with a digit,
        /// '-' or '.'.
        mutating func readName(what: String) throws(XMLReadError) -> String {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if isSpace(byte) || byte == slash || byte == gt || byte == eq || byte == quote || byte == apostrophe || byte == lt || byte == amp { break }
                position += 1  // no line end inside a name
            }
            guard position > start else { throw malformed("A missing \(what).") }
            let first = bytes[start]
            if (first >= 0x30 && first <= 0x39) || first == UInt8(ascii: "-") || first == UInt8(ascii: ".") {
                throw malformed("An \(what) starts with a character names cannot start with.")
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        }

        mutating func skipComment() throws(XMLReadError) {
            advance(4)
            while position + 2 < bytes.count {
                if bytes[position] == dash, bytes[position + 1] == dash {
                    guard bytes[position + 2] == gt else { throw malformed("'--' inside a comment.") }
                    advance(3)
                    return
                }
                advance(1)
            }
            throw malformed("A comment is not closed.")
        }

        mutating func skipProcessingInstruction() throws(XMLReadError) {
            advance(2)
            while position + 1 < bytes.count {
                if bytes[position] == question, bytes[position + 1] == gt {
                    advance(2)
                    return
                }
                advance(1)
            }
            throw malformed("A processing instruction is not closed.")
        }

        // MARK: Cursor

        @discardableResult
        mutating func skipSpace() -> Bool {
            let start = position
            while position < bytes.count, isSpace(bytes[position]) { step() }
            return position > start
        }

        /// One byte on, counting lines: the hot loops' way forward.
        @inline(__always)
        mutating func step() {
            if bytes[position] == 0x0A {
                line += 1
                lineStart = position + 1
            }
            position += 1
        }

        mutating func advance(_ count: Int) {
            let end = min(position + count, bytes.count)
            while position < end {
                if bytes[position] == 0x0A {
                    line += 1
                    lineStart = position + 1
                }
                position += 1
            }
        }

        func starts(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            let pointer = literal.utf8Start
            for offset in 0..<count where bytes[position + offset] != pointer[offset] { return false }
            return true
        }

        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        func malformed(_ detail: String) -> XMLReadError {
            XMLReadError(
                .malformedXML, line: line, column: position - lineStart + 1, element: stack.last?.name, detail: "The XML is not well-formed: \(detail)",
                advice: "Check the document with an XML validator; a truncated response or an unescaped '&' or '<' is the usual cause."
            )
        }
    }
}

private let lt = UInt8(ascii: "<")
private let gt = UInt8(ascii: ">")
private let amp = UInt8(ascii: "&")
private let slash = UInt8(ascii: "/")
private let eq = UInt8(ascii: "=")
private let quote = UInt8(ascii: "\"")
private let apostrophe = UInt8(ascii: "'")
private let semicolon = UInt8(ascii: ";")
private let dash = UInt8(ascii: "-")
private let question = UInt8(ascii: "?")
