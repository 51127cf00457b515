import Foundation

/// One SVG element with escaped attributes and text: the chart is built from these, so no caller writes
/// markup by hand and a stream name or an error code cannot break out of an attribute.
struct SVGElement: Sendable {
    let name: String
    var attributes: [(String, String)]
    var text: String?
    var children: [SVGElement]

    init(_ name: String, _ attributes: [(String, String)] = [], text: String? = nil, children: [SVGElement] = []) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    var markup: String {
        var out = "<\(name)"
        for (key, value) in attributes { out += " \(key)=\"\(Self.escape(value))\"" }
        if text == nil && children.isEmpty { return out + "/>" }
        out += ">"
        if let text { out += Self.escape(text) }
        for child in children { out += child.markup }
        return out + "</\(name)>"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

/// A pixel coordinate as SVG writes it: one decimal, no trailing zeros.
func px(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
}
