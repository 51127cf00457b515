import CoveXML
import Foundation

/// Simple TTML (the IMSC 1 text profile as DASH packagers write sidecars): the timed `<p>` paragraphs of
/// `<tt><body><div>…`, as plain-text cues. Pure, bounded by the XML guard and limits.
///
/// Read: `begin`, `end` and `dur` on `p` (and `begin` offsets on the enclosing `body` and `div`s), as clock
/// times (`00:00:01.500`, `00:00:01:12` with `ttp:frameRate`) or offsets (`1.5s`, `1500ms`, `2m`, `1h`,
/// `36f`, `9000t` with `ttp:tickRate`); the text of `p` and its `span`s, `br` as a line break, white space
/// collapsed as `xml:space="default"` does. Not read: styling, regions, animation, images.
public enum TTML {
    public struct Cue: Sendable, Hashable {
        public let identifier: String?
        /// Seconds.
        public let start: Double
        public let end: Double
        public let text: String
    }

    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public let xml: XMLReadError?
        public let detail: String

        public var description: String { xml.map { "TTML rejected: \($0)" } ?? "TTML rejected: \(detail)" }
    }

    /// At most this many cues are read (a hostile file's `p`s beyond it are ignored).
    public static let maxCues = 100_000

    /// The XML limits a TTML file is read with; fixed (the advice when one is exceeded names no setting).
    static let limits = XMLLimits(
        maxBytes: 16 << 20, maxDepth: 64, maxElements: 500_000, maxAttributesPerElement: 64, maxAttributeLength: 8192, maxTextLength: 1 << 20
    ).owned(by: nil)

    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> [Cue] {
        let root: XMLTreeElement
        do {
            root = try GuardedXML.load(bytes, limits: limits, reader: .scanner).root
        } catch {
            throw ParseError(xml: error, detail: error.detail)
        }
        guard root.localName == "tt" else {
            throw ParseError(xml: nil, detail: "The document's root is <\(root.localName.prefix(40))>, not <tt>: it is not TTML.")
        }
        let rates = Rates(
            frameRate: root.attribute(anyCase: "ttp:frameRate").flatMap(Double.init) ?? 30,
            tickRate: root.attribute(anyCase: "ttp:tickRate").flatMap(Double.init) ?? 1
        )
        var cues: [Cue] = []
        if let body = root.child("body") { collect(body, offset: 0, rates: rates, into: &cues) }
        return cues.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    }

    struct Rates {
        let frameRate: Double
        let tickRate: Double
    }

    private static func collect(_ element: XMLTreeElement, offset: Double, rates: Rates, into cues: inout [Cue]) {
        let begin = element.attribute("begin").flatMap { time($0, rates) } ?? 0
        let start = offset + begin
        if element.localName == "p" {
            guard cues.count < maxCues else { return }
            let end =
                element.attribute("end").flatMap { time($0, rates) }.map { offset + $0 }
                ?? element.attribute("dur").flatMap { time($0, rates) }.map { start + $0 }
            guard let end, end >= start else { return }
            let text = collapse(text(of: element))
            guard !text.isEmpty else { return }
            cues.append(Cue(identifier: element.attribute("xml:id") ?? element.attribute("id"), start: start, end: end, text: text))
            return
        }
        for child in element.elements where child.localName == "div" || child.localName == "p" {
            collect(child, offset: start, rates: rates, into: &cues)
        }
    }

    /// The paragraph's text: its own and its spans', `br` as a line break marker.
    private static func text(of element: XMLTreeElement) -> String {
        var out = ""
        for child in element.children {
            switch child {
            case .text(let piece, _): out += piece
            case .element(let e) where e.localName == "br": out += "\u{2028}"
            case .element(let e) where e.localName == "span": out += text(of: e)
            case .element: break
            }
        }
        return out
    }

    /// White space collapsed to single spaces, trimmed per line; `br` markers become line breaks.
    private static func collapse(_ text: String) -> String {
        text.split(separator: "\u{2028}", omittingEmptySubsequences: false).map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
        }.joined(separator: "\n").trimmingNewlines()
    }

    /// A TTML time expression in seconds, or nil.
    static func time(_ text: String, _ rates: Rates) -> Double? {
        let value = text.trimmingCharacters(in: [" ", "\t", "\n", "\r"])
        if value.contains(":") {
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3 || parts.count == 4,
                let hours = Double(parts[0]), let minutes = Double(parts[1]), let seconds = Double(parts[2]),
                hours >= 0, minutes >= 0, seconds >= 0
            else { return nil }
            var total = hours * 3600 + minutes * 60 + seconds
            if parts.count == 4 {
                guard let frames = Double(parts[3]), frames >= 0, rates.frameRate > 0 else { return nil }
                total += frames / rates.frameRate
            }
            return total.isFinite ? total : nil
        }
        let units: [(String, Double)] = [
            ("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1), ("f", 1 / max(rates.frameRate, 1e-9)), ("t", 1 / max(rates.tickRate, 1e-9)),
        ]
        for (suffix, scale) in units where value.hasSuffix(suffix) {
            guard let number = Double(value.dropLast(suffix.count)), number >= 0, number.isFinite else { return nil }
            return number * scale
        }
        return nil
    }
}

private extension String {
    func trimmingNewlines() -> String {
        var lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
