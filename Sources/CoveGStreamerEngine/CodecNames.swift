import Foundation

/// Turns GStreamer caps strings into RFC 6381-style codec names (`avc1.42c015`, `mp4a.40.2`), the
/// form HLS `CODECS` attributes and the seed's `determinedCodecs` use.
enum CodecNames {
    static func rfc6381(fromCaps caps: String) -> String? {
        let fields = parse(caps)
        guard let media = fields.media else { return nil }
        switch media {
        case "video/x-h264":
            return avc1(profile: fields["profile"], level: fields["level"])
        case "video/x-h265": return "hvc1"
        case "video/x-vp8": return "vp8"
        case "video/x-vp9": return "vp09"
        case "video/x-av1": return "av01"
        case "audio/mpeg":
            if fields["mpegversion"] == "1" { return fields["layer"] == "3" ? "mp4a.40.34" : "mp4a.6b" }
            let profile = (fields["profile"] ?? fields["base-profile"] ?? "lc").lowercased()
            switch profile {
            case "he-aac", "he", "sbr": return "mp4a.40.5"
            case "he-aac-v2", "hev2": return "mp4a.40.29"
            default: return "mp4a.40.2"
            }
        case "audio/x-ac3": return "ac-3"
        case "audio/x-eac3": return "ec-3"
        case "audio/x-opus": return "opus"
        case "audio/x-flac": return "fLaC"
        case "application/x-subtitle-vtt", "text/vtt": return "wvtt"
        default:
            return media
        }
    }

    /// `avc1.PPCCLL`: profile_idc, constraint flags and level_idc as hex. Unknown profiles give `avc1`.
    static func avc1(profile: String?, level: String?) -> String {
        let table: [String: (UInt8, UInt8)] = [
            "constrained-baseline": (0x42, 0xC0), "baseline": (0x42, 0x00), "main": (0x4D, 0x40),
            "extended": (0x58, 0x00), "high": (0x64, 0x00), "high-10": (0x6E, 0x00),
            "high-4:2:2": (0x7A, 0x00), "high-4:4:4": (0xF4, 0x00), "constrained-high": (0x64, 0x0C),
        ]
        guard let profile, let (idc, flags) = table[profile.lowercased()] else { return "avc1" }
        var levelIDC: UInt8 = 0
        if let level {
            if level == "1b" { levelIDC = 9 } else if let value = Double(level) { levelIDC = UInt8(clamping: Int((value * 10).rounded())) }
        }
        return "avc1." + hex(idc) + hex(flags) + hex(levelIDC)
    }

    private static func hex(_ value: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(value >> 4)], digits[Int(value & 0xF)]])
    }

    /// A tiny caps-string reader: `media, key=(type)value, key=value`.
    struct Fields {
        var media: String?
        var values: [String: String] = [:]
        subscript(key: String) -> String? { values[key] }
    }

    static func parse(_ caps: String) -> Fields {
        var fields = Fields()
        let firstStructure = caps.split(separator: ";").first.map(String.init) ?? caps
        var parts = firstStructure.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty else { return fields }
        fields.media = parts.removeFirst().split(separator: "(").first.map(String.init)?.trimmingCharacters(in: .whitespaces)
        for part in parts {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let key = String(part[..<eq]).trimmingCharacters(in: .whitespaces)
            var value = String(part[part.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("("), let close = value.firstIndex(of: ")") { value = String(value[value.index(after: close)...]) }
            fields.values[key] = value.trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
        }
        return fields
    }
}
