import Foundation

/// Why a report or its picture could not be written; each says what to do.
public enum ReportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The PNG needs librsvg's `rsvg-convert`, which is not on the PATH.
    case rasterizerMissing
    /// `rsvg-convert` ran and failed (its exit status and what it printed).
    case rasterizerFailed(status: Int32, message: String)
    /// The file could not be written (the path and the system's reason).
    case unwritable(path: String, reason: String)
    /// The built-in page template did not parse: a bug in Cove.
    case templateInvalid(String)

    public var description: String {
        switch self {
        case .rasterizerMissing:
            return "writing a PNG needs rsvg-convert (Debian: apt install librsvg2-bin); the HTML report needs nothing"
        case .rasterizerFailed(let status, let message):
            return "rsvg-convert failed with status \(status): \(message.isEmpty ? "no message" : message)"
        case .unwritable(let path, let reason):
            return "cannot write \(path): \(reason); choose a writable path"
        case .templateInvalid(let reason):
            return "the report template does not parse (a Cove bug, please report it): \(reason)"
        }
    }
}
