/// The parsed document as plain values: the VMAP, VAST and MPD readers walk this instead of reacting
/// to SAX callbacks, so their logic is ordinary code over an immutable tree, and the XML parser
/// is done (and released) before any interpretation starts.
public struct XMLTreeElement: Sendable {
    /// The fields live in one immutable object, so the readers' copies of elements (every
    /// `child(_:)` and `children(_:)` result) cost one retain instead of one per field; a 1 MB
    /// VMAP is some 40 000 elements, each copied several times while it is read.
    private let storage: Storage

    /// The qualified name as written, for example `vmap:AdBreak`.
    public var name: String { storage.name }
    /// The part after the prefix: elements are matched by this, because prefixes vary by server.
    public var localName: String { storage.localName }
    /// The attributes as a dictionary (built on each call: the readers ask `attribute(_:)`).
    public var attributes: [String: String] {
        switch storage.attributes {
        case .dictionary(let dictionary): return dictionary
        case .list(let list): return Dictionary(list.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
    }
    /// The attributes in document order (the scanner's) or the parser's order; names are unique.
    public var attributeList: [XMLAttribute] {
        switch storage.attributes {
        case .dictionary(let dictionary): return dictionary.map { XMLAttribute(name: $0.key, value: $0.value) }
        case .list(let list): return list
        }
    }
    /// The namespace declarations in force here, so a subtree can be written out as a
    /// standalone document. Shared with the parent unless this element declares its own.
    public var scope: NamespaceScope? { storage.scope }
    public var children: [XMLTreeNode] { storage.children }
    /// 1-based line of the start tag, for messages.
    public var line: Int { storage.line }
    /// Empty child elements kept packed instead of as `children` (only when the reader was asked to, for
    /// this element's name: `XMLScanner.parse(_:limits:packingLeavesOf:)`).
    public var packedLeaves: XMLPackedLeaves? { storage.packedLeaves }

    /// From Foundation's parser, which hands over a dictionary: kept as it is (no conversion per element).
    init(name: String, attributes: [String: String], scope: NamespaceScope?, line: Int, children: [XMLTreeNode] = []) {
        storage = Storage(
            name: name, localName: Self.localName(of: name), attributes: .dictionary(attributes), scope: scope, children: children, line: line,
            packedLeaves: nil)
    }

    init(name: String, attributeList: [XMLAttribute], scope: NamespaceScope?, line: Int, children: [XMLTreeNode] = [], packedLeaves: XMLPackedLeaves? = nil) {
        storage = Storage(
            name: name, localName: Self.localName(of: name), attributes: .list(attributeList), scope: scope, children: children, line: line,
            packedLeaves: packedLeaves)
    }

    /// Attributes as the reader that built the element had them.
    enum Attributes: Sendable {
        case dictionary([String: String])
        case list([XMLAttribute])
    }

    /// The name after its last colon, found on the UTF-8 bytes (a `Character` search would
    /// run grapheme breaking over every element name).
    private static func localName(of name: String) -> String {
        let utf8 = name.utf8
        guard let colon = utf8.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return String(name[utf8.index(after: colon)...])
    }

    private final class Storage: Sendable {
        let name: String
        let localName: String
        let attributes: Attributes
        let scope: NamespaceScope?
        let children: [XMLTreeNode]
        let line: Int
        let packedLeaves: XMLPackedLeaves?

        init(
            name: String, localName: String, attributes: Attributes, scope: NamespaceScope?, children: [XMLTreeNode], line: Int, packedLeaves: XMLPackedLeaves?
        ) {
            self.packedLeaves = packedLeaves
            self.name = name
            self.localName = localName
            self.attributes = attributes
            self.scope = scope
            self.children = children
            self.line = line
        }
    }

    /// Child elements in order. Plain loops here and below, not lazy sequences: the readers call
    /// these for every element, and generic adaptors are slow in debug builds and fuzz runs.
    public var elements: [XMLTreeElement] {
        var result: [XMLTreeElement] = []
        for case .element(let element) in children { result.append(element) }
        return result
    }

    public func children(_ localName: String) -> [XMLTreeElement] {
        var result: [XMLTreeElement] = []
        for case .element(let element) in children where element.localName == localName { result.append(element) }
        return result
    }

    public func child(_ localName: String) -> XMLTreeElement? {
        for case .element(let element) in children where element.localName == localName { return element }
        return nil
    }

    public var hasChildElements: Bool {
        for case .element in children { return true }
        return false
    }

    /// Text and CDATA directly inside this element, joined and trimmed of XML white space, so
    /// `<Impression>\n  <![CDATA[ https://… ]]>\n</Impression>` reads as the bare URL.
    public var text: String {
        var joined: String?
        for case .text(let piece, _) in children {
            // One piece (nearly every leaf) is used as is: no joining copy.
            if joined == nil { joined = piece } else { joined! += piece }
        }
        return joined.map(Self.trimmed) ?? ""
    }

    /// `text`, or nil when it is empty (`<ClickThrough/>`, `<Error></Error>`).
    public var nonEmptyText: String? {
        let value = text
        return value.isEmpty ? nil : value
    }

    /// The attribute, trimmed, or nil when absent or blank.
    public func attribute(_ name: String) -> String? {
        guard let raw = rawAttribute(name) else { return nil }
        let value = Self.trimmed(raw)
        return value.isEmpty ? nil : value
    }

    /// Like `attribute(_:)`, but matching the name in any letter case (for vendor extensions,
    /// whose attribute spelling is not standardised).
    public func attribute(anyCase name: String) -> String? {
        if let exact = attribute(name) { return exact }
        guard let key = attributeKey(anyCase: name), let raw = rawAttribute(key) else { return nil }
        let value = Self.trimmed(raw)
        return value.isEmpty ? nil : value
    }

    /// The attribute's name as this element spells it (`ttl`, `TTL`…); the exact spelling wins,
    /// then the first in sorted order, so the choice never depends on dictionary order.
    public func attributeKey(anyCase name: String) -> String? {
        if rawAttribute(name) != nil { return name }
        let lowered = name.lowercased()
        return attributeList.map(\.name).filter { $0.lowercased() == lowered }.min()
    }

    /// The attribute's value as written, by exact name (a linear look: elements have a handful).
    public func rawAttribute(_ name: String) -> String? {
        switch storage.attributes {
        case .dictionary(let dictionary): return dictionary[name]
        case .list(let list):
            for attribute in list where attribute.name == name { return attribute.value }
            return nil
        }
    }

    public static func trimmed(_ text: String) -> String {
        // Most values have nothing to trim: answer those without building a new string.
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return text }
        let isSpaceByte = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        if !isSpaceByte(first) && !isSpaceByte(last) { return text }
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}

/// One element's namespace declarations, linked to the enclosing ones. A chain rather than a
/// merged dictionary per element: a document that declares many prefixes on many elements must
/// not cost memory proportional to their product.
public final class NamespaceScope: Sendable {
    public let parent: NamespaceScope?
    /// Prefix → URI; `""` is the default namespace.
    public let declarations: [String: String]

    init(parent: NamespaceScope?, declarations: [String: String]) {
        self.parent = parent
        self.declarations = declarations
    }

    /// The URI bound to `prefix` here, nearest declaration first.
    public func uri(for prefix: String) -> String? {
        var scope: NamespaceScope? = self
        while let current = scope {
            if let uri = current.declarations[prefix] { return uri }
            scope = current.parent
        }
        return nil
    }
}

/// Empty child elements (`<S t="0" d="2"/>`) of one element, packed into flat arrays: no object, array or
/// string per element. A live DASH MPD's `SegmentTimeline`s hold tens of thousands of them; as tree
/// elements each cost an object, an attribute array and several strings to make and to free. Names and
/// (decoded) values are kept as bytes; the `raw…` accessors read them without making strings.
public struct XMLPackedLeaves: Sendable {
    /// A byte range: in the document (`source`, offsets from its start) when `start >= 0`, else in `own`
    /// (a leaf whose values needed decoding) from `-start - 1`.
    struct Span: Sendable {
        let start: Int32
        let end: Int32
    }

    /// The document the spans point into (shared, not copied).
    private let source: ArraySlice<UInt8>
    private var own: [UInt8] = []
    private var nameSpans: [Span] = []
    /// Per leaf, where its attributes start in `attributeNames`/`attributeValues` (count + 1 entries).
    private var starts: [Int32] = [0]
    private var attributeNames: [Span] = []
    private var attributeValues: [Span] = []

    init(source: ArraySlice<UInt8>) {
        self.source = source
    }

    public var count: Int { nameSpans.count }

    /// A leaf read straight from the document: ranges are offsets from the document's start.
    mutating func beginLeaf(name: Range<Int>) {
        nameSpans.append(Span(start: Int32(name.lowerBound), end: Int32(name.upperBound)))
    }

    mutating func addAttribute(name: Range<Int>, value: Range<Int>) {
        attributeNames.append(Span(start: Int32(name.lowerBound), end: Int32(name.upperBound)))
        attributeValues.append(Span(start: Int32(value.lowerBound), end: Int32(value.upperBound)))
    }

    mutating func endLeaf() {
        starts.append(Int32(attributeNames.count))
    }

    /// A leaf made from strings (one whose values needed decoding).
    mutating func append(name: String, attributes leafAttributes: some Collection<XMLAttribute>) {
        nameSpans.append(store(name))
        for attribute in leafAttributes {
            attributeNames.append(store(attribute.name))
            attributeValues.append(store(attribute.value))
        }
        endLeaf()
    }

    private mutating func store(_ text: String) -> Span {
        let start = own.count
        own.append(contentsOf: text.utf8)
        return Span(start: Int32(-start - 1), end: Int32(own.count))
    }

    private func slice(_ span: Span) -> ArraySlice<UInt8> {
        if span.start >= 0 { return source[(source.startIndex + Int(span.start))..<(source.startIndex + Int(span.end))] }
        return own[Int(-span.start - 1)..<Int(span.end)]
    }

    private func string(_ span: Span) -> String { String(decoding: slice(span), as: UTF8.self) }

    // MARK: As strings

    public var names: [String] { nameSpans.map(string) }

    /// The leaf's local name (after its prefix).
    public func localName(_ index: Int) -> Substring {
        let name = string(nameSpans[index])
        guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name[...] }
        return name[name.utf8.index(after: colon)...]
    }

    /// The leaf's attribute by exact name, decoded.
    public func attribute(_ name: String, of index: Int) -> String? {
        for position in Int(starts[index])..<Int(starts[index + 1]) where string(attributeNames[position]) == name {
            return string(attributeValues[position])
        }
        return nil
    }

    /// The leaf's attributes, decoded.
    public func attributes(of index: Int) -> [XMLAttribute] {
        (Int(starts[index])..<Int(starts[index + 1])).map { XMLAttribute(name: string(attributeNames[$0]), value: string(attributeValues[$0])) }
    }

    // MARK: As bytes (no strings made)

    /// Whether the leaf's local name is `name` (ASCII).
    public func localNameIs(_ index: Int, _ name: StaticString) -> Bool {
        let bytes = slice(nameSpans[index])
        let length = name.utf8CodeUnitCount
        guard bytes.count == length || (bytes.count > length && bytes[bytes.endIndex - length - 1] == UInt8(ascii: ":")) else { return false }
        let base = bytes.endIndex - length
        for offset in 0..<length where bytes[base + offset] != name.utf8Start[offset] { return false }
        return true
    }

    /// The leaf's attributes as bytes: `body(name, value)` for each, in document order.
    public func forEachRawAttribute(of index: Int, _ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) throws -> Void) rethrows {
        for position in Int(starts[index])..<Int(starts[index + 1]) {
            try body(slice(attributeNames[position]), slice(attributeValues[position]))
        }
    }

    /// All leaves as raw bytes, for a reader that walks tens of thousands of them: no string, slice or
    /// reference count per leaf. The view is valid only inside `body`.
    public func withRawView<R, E: Error>(_ body: (RawView) throws(E) -> R) throws(E) -> R {
        try source.withUnsafeBufferPointer { source throws(E) in
            try own.withUnsafeBufferPointer { own throws(E) in
                try body(RawView(leaves: self, source: source, own: own))
            }
        }
    }

    public struct RawView {
        fileprivate let leaves: XMLPackedLeaves
        fileprivate let source: UnsafeBufferPointer<UInt8>
        fileprivate let own: UnsafeBufferPointer<UInt8>

        public var count: Int { leaves.nameSpans.count }

        @inline(__always)
        private func bytes(_ span: Span) -> UnsafeBufferPointer<UInt8> {
            span.start >= 0
                ? UnsafeBufferPointer(rebasing: source[Int(span.start)..<Int(span.end)])
                : UnsafeBufferPointer(rebasing: own[Int(-span.start - 1)..<Int(span.end)])
        }

        /// Whether the leaf's local name is `name` (ASCII).
        public func localNameIs(_ index: Int, _ name: StaticString) -> Bool {
            let bytes = bytes(leaves.nameSpans[index])
            let length = name.utf8CodeUnitCount
            guard bytes.count == length || (bytes.count > length && bytes[bytes.count - length - 1] == UInt8(ascii: ":")) else { return false }
            let base = bytes.count - length
            for offset in 0..<length where bytes[base + offset] != name.utf8Start[offset] { return false }
            return true
        }

        /// `body(name, value)` for each of the leaf's attributes, in document order.
        @inline(__always)
        public func forEachAttribute(of index: Int, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
            for position in Int(leaves.starts[index])..<Int(leaves.starts[index + 1]) {
                try body(bytes(leaves.attributeNames[position]), bytes(leaves.attributeValues[position]))
            }
        }
    }
}

/// One attribute of an element.
public struct XMLAttribute: Sendable, Hashable {
    public let name: String
    public let value: String
}

public enum XMLTreeNode: Sendable {
    case element(XMLTreeElement)
    /// Character data; `isCDATA` keeps CDATA sections apart so the writer can put them back.
    case text(String, isCDATA: Bool)
}
