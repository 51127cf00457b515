extension PlaybackError {
    /// What led to an error: a chain of errors, not of strings.
    public indirect enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// A Cove error that led to this one (a segment download failure behind a failed-to-play-to-end).
        case playback(PlaybackError)
        /// An error from below Cove: the media engine, the HTTP client, the system.
        case underlying(UnderlyingError)

        /// The error from below Cove that `error` is, or the Cove error it already is.
        public init(_ error: any Error) {
            if let playback = error as? PlaybackError {
                self = .playback(playback)
            } else {
                self = .underlying(UnderlyingError(error))
            }
        }

        public var description: String {
            switch self {
            case .playback(let error): error.description
            case .underlying(let error): error.description
            }
        }
    }

    /// An error from below Cove, kept as values an app can test (its domain and code) with its text redacted.
    /// It holds no reference to the original error, whose description could carry a token or key.
    public struct UnderlyingError: Sendable, Hashable, CustomStringConvertible {
        /// Where it came from: `gstreamer.resource`, `gstreamer.stream`, `http`, or the Swift type's name.
        public let domain: String
        /// The domain's own code, when it has one (a GStreamer error code, an errno).
        public let code: Int?
        /// Its text, redacted.
        public let message: String

        public init(domain: String, code: Int? = nil, message: String) {
            self.domain = domain
            self.code = code
            self.message = Redaction.redactSecrets(in: message)
        }

        /// Any Swift error: its type's name as the domain and its description as the (redacted) message.
        public init(_ error: any Error) {
            self.init(domain: String(reflecting: type(of: error)), message: String(describing: error))
        }

        public var description: String {
            "\(domain)\(code.map { " \($0)" } ?? ""): \(message)"
        }
    }
}
