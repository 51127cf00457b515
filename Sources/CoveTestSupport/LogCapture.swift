import Logging
import Synchronization

/// Collects log records in memory, so tests can assert what was logged (and that no secret was).
public final class LogCapture: Sendable {
    public struct Record: Sendable, Hashable {
        public let level: Logger.Level
        public let message: String
        public let metadata: [String: String]

        /// Message and metadata as one line, for searching.
        public var text: String {
            ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    private let records = Mutex<[Record]>([])

    public init() {}

    /// A logger writing into this capture at `level` and above.
    public func logger(label: String = "cove.test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    public var all: [Record] { records.withLock { $0 } }

    /// Every record as text, one per line.
    public var text: String { all.map(\.text).joined(separator: "\n") }

    fileprivate func append(_ record: Record) {
        records.withLock { $0.append(record) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            if let extra = event.metadata { merged.merge(extra) { _, new in new } }
            capture.append(Record(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
        }
    }
}
