import CoveCore

/// What went wrong with analytics, with what to do. Never quotes the auth token (redacted).
public struct AnalyticsError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The queue's file could not be opened, read or written.
        case storageFailed
        /// The destination is not an absolute http(s) URL.
        case invalidDestination
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = Redaction.redactSecrets(in: message)
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
