/// The one error type of a playback session: a grouped, extensible code plus a message that says what
/// went wrong and what to do about it.
///
/// URLs in errors are redacted (`Redaction.redact(url:)`): query values that look like tokens or keys
/// never reach error text, logs or events.
public struct PlaybackError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    /// A sentence for a developer: the cause, and what to change.
    public let message: String
    /// The resource involved, already redacted.
    public let url: String?
    /// The HTTP status when a server answered with an error.
    public let httpStatus: Int?
    /// The lower-level cause as text (engine or system error), redacted.
    public let underlying: String?

    public init(_ code: Code, _ message: String, url: String? = nil, httpStatus: Int? = nil, underlying: String? = nil) {
        self.code = code
        self.message = Redaction.redactSecrets(in: message)
        self.url = url.map(Redaction.redact(urlString:))
        self.httpStatus = httpStatus
        self.underlying = underlying.map(Redaction.redactSecrets(in:))
    }

    public var description: String {
        var text = "\(code.name) (\(code.rawValue)): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let url, !message.contains(url) { text += " [url: \(url)]" }
        if let underlying { text += " [cause: \(underlying)]" }
        return text
    }

    /// Error codes, grouped by domain like Media3's: 1xxx session, 2xxx network/IO, 3xxx media,
    /// 4xxx API misuse, 5xxx offline (downloaded) media, 6xxx outputs, 7xxx playback rights, 9xxx engine. Plugins define their own codes from `customBase` upward.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public let rawValue: Int
        public let name: String

        public init(rawValue: Int, name: String) {
            self.rawValue = rawValue
            self.name = name
        }

        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.rawValue == rhs.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
        public var description: String { name }

        /// The session could not load its source (the seed's `LoadFailed`).
        public static let loadFailed = Code(rawValue: 1001, name: "loadFailed")
        /// No source of the video can be played (the seed's `NoPlayableSource`).
        public static let noPlayableSource = Code(rawValue: 1002, name: "noPlayableSource")
        /// Playback stopped mid-stream and will not continue on its own (the seed's `FailedToPlayToEnd`).
        public static let failedToPlayToEnd = Code(rawValue: 1003, name: "failedToPlayToEnd")

        /// The host could not be reached (DNS, refused connection, reset).
        public static let networkUnreachable = Code(rawValue: 2001, name: "networkUnreachable")
        /// The server answered with an error status.
        public static let httpStatus = Code(rawValue: 2002, name: "httpStatus")
        /// The server answered 404: the URL is wrong or the media was removed.
        public static let notFound = Code(rawValue: 2004, name: "notFound")
        /// Media segments stopped downloading during playback.
        public static let downloadFailed = Code(rawValue: 2006, name: "downloadFailed")
        /// The key server refused the decryption key (401/403): the app's token is missing or stale
        /// (a request filter for key requests can add it).
        public static let keyAuthorizationFailed = Code(rawValue: 2007, name: "keyAuthorizationFailed")

        /// The media could not be demuxed or decoded: corrupt or not media at all.
        public static let corruptMedia = Code(rawValue: 3001, name: "corruptMedia")
        /// The format or codec is not supported by the installed engine plugins.
        public static let unsupportedFormat = Code(rawValue: 3002, name: "unsupportedFormat")
        /// The server answered with something that is not media: an HTML page (a captive portal, a CDN
        /// error page), an empty body, or bytes that are neither a playlist nor a media segment.
        public static let notMedia = Code(rawValue: 3003, name: "notMedia")
        /// Encrypted media could not be decrypted: the key is not a valid key for the method, or it
        /// (or the IV) does not match the media.
        public static let decryptionFailed = Code(rawValue: 3004, name: "decryptionFailed")
        /// The media needs a key system Cove does not have (Widevine, PlayReady, FairPlay, SAMPLE-AES);
        /// the message names it. Source selection prefers a source without it when there is one.
        public static let drmUnsupported = Code(rawValue: 3005, name: "drmUnsupported")

        /// A downloaded (offline) video's licence has expired or was invalidated (the seed's
        /// `ExpiredLicense`, 69303): renew it with the offline video manager, online, to play it again.
        public static let offlineLicenseExpired = Code(rawValue: 5001, name: "offlineLicenseExpired")
        /// A downloaded (offline) video's files are missing or damaged in the store (deleted by hand, a
        /// disk restored from backup): delete the download and download it again.
        public static let offlineContentMissing = Code(rawValue: 5002, name: "offlineContentMissing")

        /// An argument was out of range (e.g. an insertion index past the queue).
        public static let invalidArgument = Code(rawValue: 4001, name: "invalidArgument")
        /// The operation is not possible in the current state.
        public static let invalidState = Code(rawValue: 4002, name: "invalidState")

        /// The chosen output cannot be opened: an audio device name the sound server does not know, an
        /// X11 display or window that does not exist. Check the name or ID, or pick another output.
        public static let outputUnavailable = Code(rawValue: 6001, name: "outputUnavailable")
        /// 7xxx rights: the rights service refused the stream (a stream or device limit, an entitlement);
        /// the message carries its advice.
        public static let playbackRightsDenied = Code(rawValue: 7001, name: "playbackRightsDenied")

        /// The media engine failed internally (missing plugin, pipeline could not be built).
        public static let engineFailure = Code(rawValue: 9001, name: "engineFailure")

        /// First code available to plugins and apps for their own errors.
        public static let customBase = 1_000_000
    }
}
