import Foundation

/// How the report writes figures: the units a reader of a QoE dashboard expects.
enum ReportFormatting {
    static func bitrate(_ bitsPerSecond: Double) -> String {
        switch bitsPerSecond {
        case 1_000_000_000...: return String(format: "%.2g Gbit/s", bitsPerSecond / 1e9)
        case 1_000_000...: return trimmed(bitsPerSecond / 1e6) + " Mbit/s"
        case 1_000...: return trimmed(bitsPerSecond / 1e3) + " kbit/s"
        default: return "\(Int(bitsPerSecond)) bit/s"
        }
    }

    /// A tick label: short (2M, 500k).
    static func bitrateTick(_ bitsPerSecond: Double) -> String {
        switch bitsPerSecond {
        case 1_000_000_000...: return trimmed(bitsPerSecond / 1e9) + "G"
        case 1_000_000...: return trimmed(bitsPerSecond / 1e6) + "M"
        case 1_000...: return trimmed(bitsPerSecond / 1e3) + "k"
        default: return trimmed(bitsPerSecond)
        }
    }

    static func bytes(_ count: Int) -> String {
        let value = Double(count)
        switch value {
        case 1_000_000_000...: return String(format: "%.2f GB", value / 1e9)
        case 1_000_000...: return String(format: "%.2f MB", value / 1e6)
        case 1_000...: return String(format: "%.1f kB", value / 1e3)
        default: return "\(count) B"
        }
    }

    static func seconds(_ value: Double) -> String {
        value < 10 ? String(format: "%.3f s", value) : String(format: "%.1f s", value)
    }

    static func seconds(_ duration: Duration) -> String {
        let components = duration.components
        return seconds(Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }

    static func percent(_ fraction: Double) -> String {
        String(format: "%.1f %%", fraction * 100)
    }

    /// At most two decimals, none when whole.
    static func trimmed(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(format: "%.2f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
