import CoveXML

/// An element kept as XML rather than interpreted: VAST `Extension`s, `CreativeExtension`s,
/// VMAP extensions and the Brightcove stream extension. Vendors put anything there, so the
/// player hands it on untouched (Brightcove exposes the same as `{tag, attributes, content}`).
///
/// `xml` is the element written back out from the parsed tree: attributes sorted by name,
/// namespace declarations inherited from ancestors added to the top element so it parses on its
/// own, comments and processing instructions dropped. It is equivalent XML, not the original bytes.
public struct RawXMLElement: Sendable, Hashable {
    /// The qualified name as written, for example `bc:Brightcove` or `Extension`.
    public let name: String
    /// The element's own attributes, namespace declarations included.
    public let attributes: [String: String]
    /// Its trimmed text content, without the markup of child elements (handy for
    /// `<BrightcoveForeignKey>1</BrightcoveForeignKey>`-style leaves).
    public let text: String
    /// Everything between the start and end tags, as XML.
    public let innerXML: String
    /// The whole element, as a standalone XML document.
    public let xml: String

    public init(name: String, attributes: [String: String], text: String, innerXML: String, xml: String) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.innerXML = innerXML
        self.xml = xml
    }

    /// The name without its namespace prefix.
    public var localName: Substring {
        guard let colon = name.lastIndex(of: ":") else { return name[...] }
        return name[name.index(after: colon)...]
    }

    /// `xml` as UTF-8 bytes.
    public var data: [UInt8] { Array(xml.utf8) }

    init(_ element: XMLTreeElement) {
        var inner = ""
        XMLWriter.writeChildren(of: element, into: &inner)
        var outer = ""
        XMLWriter.write(element, into: &outer, declaringInheritedNamespaces: true)
        self.init(name: element.name, attributes: element.attributes, text: element.text, innerXML: inner, xml: outer)
    }
}
