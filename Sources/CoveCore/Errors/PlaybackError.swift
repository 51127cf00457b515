/// The one error type of a playback session: a namespaced code, a message that says what went wrong and
/// what to do about it, how severe it is, and the errors that caused it.
///
/// URLs in errors are redacted (`Redaction.redact(url:)`), and so is every message and cause: query
/// values that look like tokens or keys never reach error text, logs or events.
///
/// The codes Cove itself raises are listed, with their severity and what to do, in the documentation's
/// "Playback errors" article.
public struct PlaybackError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    /// A sentence for a developer: the cause, and what to change.
    public let message: String
    /// Whether Cove carries on by itself (`recoverable`) or playback has stopped until the app acts (`fatal`).
    public let severity: Severity
    /// The resource involved, already redacted.
    public let url: String?
    /// The HTTP status when a server answered with an error.
    public let httpStatus: Int?
    /// The error that led to this one: another `PlaybackError` (a download failure behind a
    /// failed-to-play-to-end) or an error from below Cove (the engine, the HTTP client, the system).
    public let cause: Cause?

    /// Whether Cove recovers from an error by itself, like Shaka's error severity.
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        /// Cove carries on: it retries, skips what failed (a bumper, an ad timeline) or plays on from the buffer.
        case recoverable
        /// Playback of the session has stopped; the app must act (resume, retry, choose another video).
        case fatal
    }

    /// - Parameters:
    ///   - code: What went wrong, in the core's or a plugin's namespace.
    ///   - message: What went wrong and what to do; redacted here.
    ///   - severity: Fatal unless the caller carries on by itself. The controller sets it on the errors it reports.
    ///   - url: The resource involved; redacted here.
    ///   - httpStatus: The server's status, when it answered with an error.
    ///   - cause: The error that led to this one.
    public init(_ code: Code, _ message: String, severity: Severity = .fatal, url: String? = nil, httpStatus: Int? = nil, cause: Cause? = nil) {
        self.code = code
        self.message = Redaction.redactSecrets(in: message)
        self.severity = severity
        self.url = url.map(Redaction.redact(urlString:))
        self.httpStatus = httpStatus
        self.cause = cause
    }

    /// This error, reported with another severity (the controller decides it by what playback does next).
    public func with(severity: Severity) -> PlaybackError {
        severity == self.severity ? self : PlaybackError(code, message, severity: severity, url: url, httpStatus: httpStatus, cause: cause)
    }

    /// The causes from the nearest to the root.
    public var causeChain: [Cause] {
        var chain: [Cause] = []
        var next = cause
        while let current = next, chain.count < 32 {
            chain.append(current)
            if case .playback(let error) = current { next = error.cause } else { next = nil }
        }
        return chain
    }

    /// The deepest cause: what happened first.
    public var rootCause: Cause? { causeChain.last }

    public var description: String {
        var text = "\(code) (\(code.rawValue)): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let url, !message.contains(url) { text += " [url: \(url)]" }
        if let cause { text += " [cause: \(cause)]" }
        return text
    }
}
