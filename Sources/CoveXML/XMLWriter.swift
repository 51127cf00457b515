import Foundation

/// Writes a parsed subtree back out as XML for `RawXMLElement`. Output is deterministic
/// (attributes sorted) so equal input gives equal values, and escaping keeps every value
/// intact through a second parse, including carriage returns and tabs in attributes.
public enum XMLWriter {
    public static func write(_ element: XMLTreeElement, into out: inout String, declaringInheritedNamespaces: Bool = false) {
        var attributes = element.attributes
        if declaringInheritedNamespaces, let scope = element.scope {
            var used: Set<String> = []
            collectPrefixes(element, into: &used)
            for prefix in used {
                let key = prefix.isEmpty ? "xmlns" : "xmlns:\(prefix)"
                if attributes[key] == nil, let uri = scope.uri(for: prefix), !uri.isEmpty { attributes[key] = uri }
            }
        }
        out += "<"
        out += element.name
        for key in attributes.keys.sorted() {
            out += " \(key)=\""
            escape(attributes[key] ?? "", into: &out, inAttribute: true)
            out += "\""
        }
        if element.children.isEmpty {
            out += "/>"
            return
        }
        out += ">"
        writeChildren(of: element, into: &out)
        out += "</\(element.name)>"
    }

    /// The namespace prefixes the subtree's element and attribute names use (`""` for unprefixed
    /// elements, which take the default namespace). Only these are declared on a fragment, so
    /// its size stays proportional to its own content however many prefixes are in scope.
    private static func collectPrefixes(_ element: XMLTreeElement, into used: inout Set<String>) {
        used.insert(prefix(of: element.name))
        for name in element.attributes.keys {
            let attributePrefix = prefix(of: name)
            if !attributePrefix.isEmpty, attributePrefix != "xmlns", attributePrefix != "xml" { used.insert(attributePrefix) }
        }
        for case .element(let child) in element.children { collectPrefixes(child, into: &used) }
    }

    private static func prefix(of name: String) -> String {
        guard let colon = name.firstIndex(of: ":") else { return "" }
        return String(name[..<colon])
    }

    public static func writeChildren(of element: XMLTreeElement, into out: inout String) {
        for child in element.children {
            switch child {
            case .element(let nested):
                write(nested, into: &out)
            case .text(let text, isCDATA: true):
                out += "<![CDATA["
                out += text.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>")
                out += "]]>"
            case .text(let text, isCDATA: false):
                escape(text, into: &out, inAttribute: false)
            }
        }
    }

    private static func escape(_ text: String, into out: inout String, inAttribute: Bool) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where inAttribute: out += "&quot;"
            case "\t" where inAttribute: out += "&#9;"
            case "\n" where inAttribute: out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}
