import CoveInput
import CoveXML

/// What the readers carry while walking one document: the limits and the warnings so far, plus
/// the small typed readers for attribute values, which all turn a bad value into "absent plus a
/// warning" the same way.
struct ReadContext {
    let limits: VMAPParseLimits
    private var log: WarningLog<VMAPParseWarning>

    /// The warnings stored so far.
    var warnings: [VMAPParseWarning] { log.items }

    init(limits: VMAPParseLimits) {
        self.limits = limits
        self.log = WarningLog(limit: limits.maxWarnings)
    }

    /// A context for reading `tree`, carrying the XML parser's recoverable problems as a warning.
    init(for tree: XMLTreeBuilder.Result, limits: VMAPParseLimits) {
        self.init(limits: limits)
        if tree.recoverableProblem {
            warn(
                .xmlWarning, at: "document",
                "The XML parser reported a recoverable problem (such as an undeclared namespace prefix); elements were matched by local name.")
        }
    }

    mutating func warn(_ kind: VMAPParseWarning.Kind, at location: String, _ message: String) {
        log.add(VMAPParseWarning(kind, location: location, message: message))
    }

    /// The warnings, ending with a summary when some were not stored.
    var finishedWarnings: [VMAPParseWarning] {
        guard log.omitted > 0 else { return log.items }
        return log.items + [
            VMAPParseWarning(
                .tooManyWarnings, location: "document",
                message: "\(log.omitted) more warning(s) were not stored (VMAPParseLimits.maxWarnings is \(limits.maxWarnings))."
            )
        ]
    }

    /// A non-negative decimal integer attribute; absent when missing, a warning when unreadable.
    mutating func integer(_ element: XMLTreeElement, _ name: String, at location: String) -> Int? {
        guard let text = element.attribute(name) else { return nil }
        let digits = text.utf8
        if !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(text)
        {
            return value
        }
        warn(.badAttribute, at: location, "<\(element.name)> \(name)=\"\(Self.snippet(text))\" is not a non-negative whole number; ignored.")
        return nil
    }

    /// `true`/`false` (also `1`/`0`, any letter case); absent when missing, a warning when unreadable.
    mutating func bool(_ element: XMLTreeElement, _ name: String, at location: String) -> Bool? {
        guard let text = element.attribute(name) else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default:
            warn(.badAttribute, at: location, "<\(element.name)> \(name)=\"\(Self.snippet(text))\" is not true or false; ignored.")
            return nil
        }
    }

    /// Quotes a short, single-line piece of a non-URL value for a message.
    static func snippet(_ text: String, limit: Int = 32) -> String {
        let line = String(text.map { $0.isNewline ? " " : $0 })
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }
}

extension String {
    /// Appends a path step such as `Ad[2] "abc"` to a warning location.
    func step(_ name: String, _ index: Int? = nil, id: String? = nil) -> String {
        var part = name
        if let index { part += "[\(index)]" }
        if let id { part += " \"\(ReadContext.snippet(id, limit: 40))\"" }
        return isEmpty ? part : "\(self) › \(part)"
    }
}
