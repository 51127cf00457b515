import CoveInput
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Runs Foundation's `XMLParser` (libxml2 on Linux) over guarded bytes and builds an
/// `XMLTreeElement` tree, enforcing the depth, element, attribute and text limits in the
/// callbacks and aborting the parse the moment one is crossed.
///
/// `XMLParser.parse()` returns true for some broken documents (truncated input, a second root,
/// an undeclared prefix), so success is decided here from the reported errors and the element
/// stack, never from its return value alone.
public final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private let limits: XMLLimits
    private let maxDepth: Int
    /// The parse state, behind a pointer this builder owns: every callback touches it several
    /// times, and as stored properties of a class each touch paid a dynamic exclusivity check
    /// (a tenth of a 1 MB VMAP's parse). One parse runs on one thread, so there is no overlap.
    private let state: UnsafeMutablePointer<State>

    private struct State {
        var stack: [OpenElement] = []
        var root: XMLTreeElement?
        var elementCount = 0
        var failure: XMLReadError?
        var recoverableProblems = 0
    }

    /// Past this many recoverable problems the document is refused: each report costs a small
    /// allocation that Foundation's `XMLParser` on Linux never frees, so a hostile document with
    /// one undeclared prefix per element must not be read to the end.
    private static let maxRecoverableProblems = 100

    /// libxml2 codes it reports and then carries on from, which `XMLParser` passes on without a
    /// severity: the warnings for an unknown XML version (97), a bad `xml:lang` (98), an invalid
    /// or relative namespace URI (99, 100; `xmlns="vast"` is common) and a bad `xml:space` (102),
    /// and the namespace errors 200…205 (an undeclared prefix and the like). Elements are matched
    /// by local name, so none of these changes what is read.
    private static let recoverableCodes: Set<Int> = [97, 98, 99, 100, 102, 200, 201, 202, 203, 204, 205]

    private init(limits: XMLLimits) {
        self.limits = limits
        self.maxDepth = limits.effectiveMaxDepth
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// An element whose end tag has not been read yet: the only mutable stage of a tree element.
    private struct OpenElement {
        let name: String
        let attributes: [String: String]
        let scope: NamespaceScope?
        let line: Int
        var children: [XMLTreeNode] = []
        /// Bytes of text and CDATA read so far, for the text limit.
        var textLength = 0
        /// Character data not yet attached: libxml2 delivers text in small pieces, and joining
        /// them here keeps a long text linear instead of quadratic.
        var pendingText = ""

        func closed() -> XMLTreeElement {
            XMLTreeElement(name: name, attributes: attributes, scope: scope, line: line, children: children)
        }
    }

    public struct Result: Sendable {
        public let root: XMLTreeElement
        /// True when libxml2 reported a recoverable problem (see `recoverableCodes`).
        public let recoverableProblem: Bool
    }

    public static func parse(_ bytes: ArraySlice<UInt8>, limits: XMLLimits) throws(XMLReadError) -> Result {
        let builder = XMLTreeBuilder(limits: limits)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let finished = parser.parse()
        parser.delegate = nil
        if let failure = builder.state.pointee.failure { throw failure }
        guard let root = builder.state.pointee.root, builder.state.pointee.stack.isEmpty else {
            let open = builder.state.pointee.stack.last?.name
            throw XMLReadError(
                .malformedXML, line: parser.lineNumber, element: open,
                detail: open == nil
                    ? "The document has no root element; it is not XML."
                    : "The document ends inside an open element; it is truncated.",
                advice: "Check that the whole response arrived and that the server returned XML, not an error page."
            )
        }
        if !finished {
            throw XMLReadError(
                .malformedXML, line: parser.lineNumber, column: parser.columnNumber,
                detail: "The XML parser stopped before the end of the document.",
                advice: "Check the document with an XML validator; it is not well-formed."
            )
        }
        return Result(root: root, recoverableProblem: builder.state.pointee.recoverableProblems > 0)
    }

    private func fail(_ parser: XMLParser, _ error: XMLReadError) {
        guard state.pointee.failure == nil else { return }
        state.pointee.failure = error
        parser.abortParsing()
    }

    public func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard state.pointee.failure == nil else { return }
        state.pointee.elementCount += 1
        if let error = limits.violation(
            .maxElements, state.pointee.elementCount, line: parser.lineNumber, subject: elementName,
            detail: "The document has more than \(limits.maxElements) elements.")
        {
            return fail(parser, error)
        }
        if let error = limits.violation(
            .maxDepth, state.pointee.stack.count + 1, line: parser.lineNumber, subject: elementName, detail: "Elements nest deeper than \(maxDepth) levels.")
        {
            return fail(parser, error)
        }
        if let error = limits.violation(
            .maxAttributesPerElement, attributeDict.count, line: parser.lineNumber, subject: elementName,
            detail: "An element has \(attributeDict.count) attributes; the limit is \(limits.maxAttributesPerElement).")
        {
            return fail(parser, error)
        }
        var declarations: [String: String] = [:]
        for (key, value) in attributeDict {
            if let error = limits.violation(
                .maxAttributeLength, value.utf8.count, line: parser.lineNumber, subject: elementName,
                detail: "An attribute value is \(value.utf8.count) bytes; the limit is \(limits.maxAttributeLength).")
            {
                return fail(parser, error)
            }
            if key == "xmlns" {
                declarations[""] = value
            } else if key.hasPrefix("xmlns:"), key.count > 6 {
                declarations[String(key.dropFirst(6))] = value
            }
        }
        let inherited = state.pointee.stack.last?.scope
        let scope = declarations.isEmpty ? inherited : NamespaceScope(parent: inherited, declarations: declarations)
        flushText(beforeChildElement: true)
        state.pointee.stack.append(OpenElement(name: elementName, attributes: attributeDict, scope: scope, line: parser.lineNumber))
    }

    public func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard state.pointee.failure == nil, !state.pointee.stack.isEmpty else { return }
        flushText()
        let element = state.pointee.stack.removeLast().closed()
        if state.pointee.stack.isEmpty {
            state.pointee.root = element
        } else {
            state.pointee.stack[state.pointee.stack.count - 1].children.append(.element(element))
        }
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        appendText(parser, string, isCDATA: false)
    }

    public func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
        appendText(parser, whitespaceString, isCDATA: false)
    }

    public func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        appendText(parser, String(decoding: CDATABlock, as: UTF8.self), isCDATA: true)
    }

    private func appendText(_ parser: XMLParser, _ piece: String, isCDATA: Bool) {
        guard state.pointee.failure == nil, !state.pointee.stack.isEmpty else { return }
        let total = state.pointee.stack[state.pointee.stack.count - 1].textLength + piece.utf8.count
        if let error = limits.violation(
            .maxTextLength, total, line: parser.lineNumber, subject: state.pointee.stack.last?.name,
            detail: "An element's text exceeds \(limits.maxTextLength) bytes.")
        {
            return fail(parser, error)
        }
        state.pointee.stack[state.pointee.stack.count - 1].textLength = total
        if isCDATA {
            flushText()
            state.pointee.stack[state.pointee.stack.count - 1].children.append(.text(piece, isCDATA: true))
        } else {
            state.pointee.stack[state.pointee.stack.count - 1].pendingText += piece
        }
    }

    /// Moves the pending text into the open element. White space that only separates child
    /// elements (indentation) is dropped: nothing reads it, every trimmed `text` is the same
    /// without it, and keeping it doubled the nodes a pretty-printed VMAP builds and frees.
    private func flushText(beforeChildElement: Bool = false) {
        guard let last = state.pointee.stack.indices.last, !state.pointee.stack[last].pendingText.isEmpty else { return }
        let piece = state.pointee.stack[last].pendingText
        state.pointee.stack[last].pendingText = ""
        if Self.isXMLWhitespace(piece) {
            if beforeChildElement { return }
            if case .element = state.pointee.stack[last].children.last { return }
        }
        state.pointee.stack[last].children.append(.text(piece, isCDATA: false))
    }

    private static func isXMLWhitespace(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    public func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        let code = (parseError as NSError).code
        if Self.recoverableCodes.contains(code) {
            state.pointee.recoverableProblems += 1
            if state.pointee.recoverableProblems <= Self.maxRecoverableProblems { return }
            return fail(
                parser,
                XMLReadError(
                    .malformedXML, line: parser.lineNumber, column: parser.columnNumber, element: state.pointee.stack.last?.name,
                    detail: "The XML has more than \(Self.maxRecoverableProblems) namespace or declaration problems (libxml2 error \(code)).",
                    advice: "Declare every namespace prefix the document uses; a document this broken is not read."
                ))
        }
        fail(
            parser,
            XMLReadError(
                .malformedXML, line: parser.lineNumber, column: parser.columnNumber, element: state.pointee.stack.last?.name,
                detail: "The XML is not well-formed (libxml2 error \(code)).",
                advice: "Check the document with an XML validator; a truncated response or an unescaped '&' or '<' is the usual cause."
            ))
    }
}
