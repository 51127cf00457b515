/// Fills a `SegmentTemplate` URL: `$RepresentationID$`, `$Number$`, `$Bandwidth$`, `$Time$`, each with
/// an optional `%0Nd` width, and `$$` for a dollar sign (ISO/IEC 23009-1 §5.3.9.4.4). Nil for a
/// template it cannot fill exactly (an unknown identifier, an unterminated `$`, a format on the ID).
enum SegmentTemplateFormat {
    struct Values {
        let representationID: String
        let number: Int?
        let bandwidth: Int
        let time: UInt64?
    }

    static func fill(_ template: String, _ values: Values) -> String? {
        var result = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            guard let close = rest[afterDollar...].firstIndex(of: "$") else { return nil }
            let identifier = rest[afterDollar..<close]
            rest = rest[rest.index(after: close)...]
            if identifier.isEmpty {
                result += "$"
                continue
            }
            let name: Substring
            var width = 1
            if let percent = identifier.firstIndex(of: "%") {
                name = identifier[..<percent]
                let format = identifier[identifier.index(after: percent)...]
                guard format.first == "0" || format.first?.isNumber == true, format.last == "d",
                    let parsed = Int(format.dropLast()), parsed >= 0, parsed <= 32
                else { return nil }
                width = max(parsed, 1)
            } else {
                name = identifier
            }
            switch name {
            case "RepresentationID":
                guard width == 1, !identifier.contains("%") else { return nil }
                result += values.representationID
            case "Number":
                guard let number = values.number else { return nil }
                result += padded(String(number), width)
            case "Bandwidth":
                result += padded(String(values.bandwidth), width)
            case "Time":
                guard let time = values.time else { return nil }
                result += padded(String(time), width)
            default:
                return nil
            }
        }
        result += rest
        return result
    }

    private static func padded(_ digits: String, _ width: Int) -> String {
        digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
