/// Builds one tag's attribute list in a fixed order: the attributes Cove models first, then the
/// ones it kept verbatim.
///
/// Values are written as given, except for characters HLS cannot carry: a double quote inside a
/// quoted string becomes `'`, line breaks become spaces, and unquoted values lose commas, quotes,
/// line breaks and surrounding spaces (an empty one becomes `0`). Parsed values never contain
/// these, so parse → write → parse is exact.
struct AttributeWriter {
    /// Uppercase hex digits, shared with the parser's error messages.
    static let hexDigits = Array("0123456789ABCDEF")

    private var parts: [String] = []
    private var names: Set<String> = []

    mutating func quoted(_ name: String, _ value: String?) {
        guard let value else { return }
        append(name, "\"" + Self.quotable(value) + "\"")
    }

    mutating func unquoted(_ name: String, _ value: String?) {
        guard let value else { return }
        append(name, Self.unquotable(value))
    }

    mutating func integer(_ name: String, _ value: Int?) {
        guard let value else { return }
        append(name, String(max(0, value)))
    }

    mutating func decimal(_ name: String, _ value: Double?) {
        guard let value else { return }
        append(name, DecimalText.format(value))
    }

    mutating func flag(_ name: String, _ value: Bool) {
        if value { append(name, "YES") }
    }

    mutating func hexadecimal(_ name: String, _ bytes: [UInt8]?) {
        guard let bytes else { return }
        var text = "0x"
        for byte in bytes {
            text.append(Self.hexDigits[Int(byte >> 4)])
            text.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        if bytes.isEmpty { text.append("0") }
        append(name, text)
    }

    mutating func list(_ name: String, _ items: [String]) {
        guard !items.isEmpty else { return }
        quoted(name, items.joined(separator: ","))
    }

    /// Attributes kept verbatim. One whose name was already written is skipped: a tag cannot carry
    /// an attribute twice.
    mutating func others(_ attributes: [HLSAttribute]) {
        for attribute in attributes where !attribute.name.isEmpty {
            switch attribute.value {
            case .quoted(let text): quoted(attribute.name, text)
            case .unquoted(let text): unquoted(attribute.name, text)
            }
        }
    }

    var text: String { parts.joined(separator: ",") }

    private mutating func append(_ name: String, _ value: String) {
        guard names.insert(name).inserted else { return }
        parts.append(name + "=" + value)
    }

    static func quotable(_ text: String) -> String {
        guard text.contains(where: { $0 == "\"" || $0.isNewline }) else { return text }
        return String(text.map { $0 == "\"" ? "'" : $0.isNewline ? " " : $0 })
    }

    static func unquotable(_ text: String) -> String {
        let cleaned = Substring(text.filter { $0 != "," && $0 != "\"" && !$0.isNewline }).trimmingSpaces
        return cleaned.isEmpty ? "0" : String(cleaned)
    }

    /// A URI, title or verbatim tag on its own line: only line breaks must go.
    static func singleLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
