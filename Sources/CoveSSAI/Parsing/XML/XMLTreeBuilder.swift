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
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private let limits: VMAPParseLimits
    private let maxDepth: Int
    private var stack: [XMLTreeElement] = []
    private var textLengths: [Int] = []
    /// Character data not yet attached to the open element: libxml2 delivers text in small
    /// pieces, and joining them here keeps a long text linear instead of quadratic.
    private var pendingText: [String] = []
    private var root: XMLTreeElement?
    private var elementCount = 0
    private var failure: VMAPParseError?
    private var recoverableProblems = 0

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

    private init(limits: VMAPParseLimits) {
        self.limits = limits
        self.maxDepth = limits.effectiveMaxDepth
    }

    struct Result {
        let root: XMLTreeElement
        /// True when libxml2 reported a recoverable problem (see `recoverableCodes`).
        let recoverableProblem: Bool
    }

    static func parse(_ bytes: ArraySlice<UInt8>, limits: VMAPParseLimits) throws(VMAPParseError) -> Result {
        let builder = XMLTreeBuilder(limits: limits)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let finished = parser.parse()
        parser.delegate = nil
        if let failure = builder.failure { throw failure }
        guard let root = builder.root, builder.stack.isEmpty else {
            let open = builder.stack.last?.name
            throw VMAPParseError(
                .malformedXML, line: parser.lineNumber, element: open,
                detail: open == nil
                    ? "The document has no root element; it is not XML."
                    : "The document ends inside an open element; it is truncated.",
                advice: "Check that the whole response arrived and that the server returned XML, not an error page."
            )
        }
        if !finished {
            throw VMAPParseError(
                .malformedXML, line: parser.lineNumber, column: parser.columnNumber,
                detail: "The XML parser stopped before the end of the document.",
                advice: "Check the document with an XML validator; it is not well-formed."
            )
        }
        return Result(root: root, recoverableProblem: builder.recoverableProblems > 0)
    }

    private func fail(_ parser: XMLParser, _ error: VMAPParseError) {
        guard failure == nil else { return }
        failure = error
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        elementCount += 1
        if elementCount > limits.maxElements {
            return fail(parser, VMAPParseError(
                .tooManyElements, line: parser.lineNumber, element: elementName,
                detail: "The document has more than \(limits.maxElements) elements.",
                advice: "Ask the ad server for fewer ads per response, or raise VMAPParseLimits.maxElements."
            ))
        }
        if stack.count + 1 > maxDepth {
            return fail(parser, VMAPParseError(
                .tooDeep, line: parser.lineNumber, element: elementName,
                detail: "Elements nest deeper than \(maxDepth) levels.",
                advice: "VMAP with inline VAST needs about 15 levels; a deeper document is broken or hostile."
            ))
        }
        if attributeDict.count > limits.maxAttributesPerElement {
            return fail(parser, VMAPParseError(
                .tooManyAttributes, line: parser.lineNumber, element: elementName,
                detail: "An element has \(attributeDict.count) attributes; the limit is \(limits.maxAttributesPerElement).",
                advice: "Raise VMAPParseLimits.maxAttributesPerElement if the ad server really needs that many."
            ))
        }
        var declarations: [String: String] = [:]
        for (key, value) in attributeDict {
            if value.utf8.count > limits.maxAttributeLength {
                return fail(parser, VMAPParseError(
                    .attributeTooLong, line: parser.lineNumber, element: elementName,
                    detail: "An attribute value is \(value.utf8.count) bytes; the limit is \(limits.maxAttributeLength).",
                    advice: "Raise VMAPParseLimits.maxAttributeLength if URLs from this server are really that long."
                ))
            }
            if key == "xmlns" {
                declarations[""] = value
            } else if key.hasPrefix("xmlns:"), key.count > 6 {
                declarations[String(key.dropFirst(6))] = value
            }
        }
        let inherited = stack.last?.scope
        let scope = declarations.isEmpty ? inherited : NamespaceScope(parent: inherited, declarations: declarations)
        flushText()
        stack.append(XMLTreeElement(name: elementName, attributes: attributeDict, scope: scope, line: parser.lineNumber))
        textLengths.append(0)
        pendingText.append("")
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard failure == nil, !stack.isEmpty else { return }
        flushText()
        let element = stack.removeLast()
        textLengths.removeLast()
        pendingText.removeLast()
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(.element(element))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        appendText(parser, string, isCDATA: false)
    }

    func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
        appendText(parser, whitespaceString, isCDATA: false)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        appendText(parser, String(decoding: CDATABlock, as: UTF8.self), isCDATA: true)
    }

    private func appendText(_ parser: XMLParser, _ piece: String, isCDATA: Bool) {
        guard failure == nil, !stack.isEmpty else { return }
        let total = textLengths[textLengths.count - 1] + piece.utf8.count
        if total > limits.maxTextLength {
            return fail(parser, VMAPParseError(
                .textTooLong, line: parser.lineNumber, element: stack.last?.name,
                detail: "An element's text exceeds \(limits.maxTextLength) bytes.",
                advice: "Raise VMAPParseLimits.maxTextLength if this server really sends resources that large."
            ))
        }
        textLengths[textLengths.count - 1] = total
        if isCDATA {
            flushText()
            stack[stack.count - 1].children.append(.text(piece, isCDATA: true))
        } else {
            pendingText[pendingText.count - 1] += piece
        }
    }

    private func flushText() {
        guard let last = pendingText.indices.last, !pendingText[last].isEmpty else { return }
        stack[stack.count - 1].children.append(.text(pendingText[last], isCDATA: false))
        pendingText[last] = ""
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        let code = (parseError as NSError).code
        if Self.recoverableCodes.contains(code) {
            recoverableProblems += 1
            if recoverableProblems <= Self.maxRecoverableProblems { return }
            return fail(parser, VMAPParseError(
                .malformedXML, line: parser.lineNumber, column: parser.columnNumber, element: stack.last?.name,
                detail: "The XML has more than \(Self.maxRecoverableProblems) namespace or declaration problems (libxml2 error \(code)).",
                advice: "Declare every namespace prefix the document uses; a document this broken is not read."
            ))
        }
        fail(parser, VMAPParseError(
            .malformedXML, line: parser.lineNumber, column: parser.columnNumber, element: stack.last?.name,
            detail: "The XML is not well-formed (libxml2 error \(code)).",
            advice: "Check the document with an XML validator; a truncated response or an unescaped '&' or '<' is the usual cause."
        ))
    }
}
