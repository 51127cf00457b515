import Foundation

/// Decides, request by request, to answer otherwise than by serving the file: an outage starting with
/// this request, a status instead of the content, a delay before the first byte, junk instead of the
/// file's bytes, a body cut short. The server asks in that order and only where each applies (junk and a
/// cut only for a whole file), so a decision is used up only by a request it concerns. Every method
/// defaults to "no".
///
/// What a demo or a failure drill uses to make a server misbehave on cue; the test kit's fault injection
/// (`MediaServer.forceStatus`, `scheduleOutage`, …) is one.
public protocol RequestInterceptor: Sendable {
    /// Takes the server offline for this long, starting with (and failing) this request.
    func outage(forPath path: String) -> Duration?
    /// Answers this status instead of the content.
    func status(forPath path: String) -> Int?
    /// Waits this much longer before answering.
    func delay(forPath path: String) -> Duration
    /// Sends only this many bytes of a whole file, then drops the connection.
    func cut(forPath path: String) -> Int?
    /// Sends these bytes instead of a whole file's `length` bytes, with the file's status and type: a
    /// corrupted or junk segment, an error page where media was expected.
    func junk(forPath path: String, length: Int) -> Data?
}

extension RequestInterceptor {
    public func outage(forPath path: String) -> Duration? { nil }
    public func status(forPath path: String) -> Int? { nil }
    public func delay(forPath path: String) -> Duration { .zero }
    public func cut(forPath path: String) -> Int? { nil }
    public func junk(forPath path: String, length: Int) -> Data? { nil }
}
