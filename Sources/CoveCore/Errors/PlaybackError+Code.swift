extension PlaybackError {
    /// What went wrong, namespaced: Cove's own codes are in the `core` namespace, grouped by domain like
    /// Media3's (1xxx session, 2xxx network and I/O, 3xxx media, 4xxx API misuse, 5xxx offline media,
    /// 6xxx outputs, 7xxx playback rights, 9xxx engine). A plugin or an app names its own namespace, so its
    /// codes can never equal a core code or another plugin's, whatever numbers they use.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// Whose code it is.
        public enum Namespace: Sendable, Hashable, CustomStringConvertible {
            /// Raised by Cove's core and its engine.
            case core
            /// Raised by a plugin or an app, under the name it chose (`"ssai"`, `"com.example.drm"`).
            case plugin(String)

            public var description: String {
                switch self {
                case .core: "core"
                case .plugin(let name): name
                }
            }
        }

        public let namespace: Namespace
        /// The number within the namespace.
        public let rawValue: Int
        /// A name for logs and for matching in code that does not import the defining module.
        public let name: String

        /// A core code: only Cove defines these (the table in the "Playback errors" article lists them all).
        init(core rawValue: Int, name: String) {
            self.namespace = .core
            self.rawValue = rawValue
            self.name = name
        }

        /// A plugin's or an app's own code, in its own namespace.
        /// - Parameters:
        ///   - plugin: The namespace: the plugin's or app's name. Even a plugin named "core" stays apart
        ///     from Cove's codes: `.plugin("core")` is not `.core`.
        ///   - rawValue: The number within that namespace.
        ///   - name: A name for logs.
        public init(plugin: String, rawValue: Int, name: String) {
            self.namespace = .plugin(plugin)
            self.rawValue = rawValue
            self.name = name
        }

        /// Codes are equal when their namespace and number are: the name is for people.
        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.namespace == rhs.namespace && lhs.rawValue == rhs.rawValue }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(namespace)
            hasher.combine(rawValue)
        }

        /// The name, with the namespace before it for a plugin's code (`ssai.ssaiVMAPMissing`).
        public var description: String {
            switch namespace {
            case .core: name
            case .plugin(let plugin): "\(plugin).\(name)"
            }
        }

        /// The session could not load its source (the seed's `LoadFailed`).
        public static let loadFailed = Code(core: 1001, name: "loadFailed")
        /// No source of the video can be played (the seed's `NoPlayableSource`).
        public static let noPlayableSource = Code(core: 1002, name: "noPlayableSource")
        /// Playback stopped mid-stream and will not continue on its own (the seed's `FailedToPlayToEnd`).
        public static let failedToPlayToEnd = Code(core: 1003, name: "failedToPlayToEnd")

        /// The host could not be reached (DNS, refused connection, reset).
        public static let networkUnreachable = Code(core: 2001, name: "networkUnreachable")
        /// The server answered with an error status.
        public static let httpStatus = Code(core: 2002, name: "httpStatus")
        /// The server answered 404: the URL is wrong or the media was removed.
        public static let notFound = Code(core: 2004, name: "notFound")
        /// Media segments stopped downloading during playback.
        public static let downloadFailed = Code(core: 2006, name: "downloadFailed")
        /// The key server refused the decryption key (401/403): the app's token is missing or stale
        /// (a request filter for key requests can add it).
        public static let keyAuthorizationFailed = Code(core: 2007, name: "keyAuthorizationFailed")

        /// The media could not be demuxed or decoded: corrupt or not media at all.
        public static let corruptMedia = Code(core: 3001, name: "corruptMedia")
        /// The format or codec is not supported by the installed engine plugins.
        public static let unsupportedFormat = Code(core: 3002, name: "unsupportedFormat")
        /// The server answered with something that is not media: an HTML page (a captive portal, a CDN
        /// error page), an empty body, or bytes that are neither a playlist nor a media segment.
        public static let notMedia = Code(core: 3003, name: "notMedia")
        /// Encrypted media could not be decrypted: the key is not a valid key for the method, or it
        /// (or the IV) does not match the media.
        public static let decryptionFailed = Code(core: 3004, name: "decryptionFailed")
        /// The media needs a key system Cove does not have (Widevine, PlayReady, FairPlay, SAMPLE-AES);
        /// the message names it. Source selection prefers a source without it when there is one.
        public static let drmUnsupported = Code(core: 3005, name: "drmUnsupported")

        /// An argument was out of range (e.g. an insertion index past the queue).
        public static let invalidArgument = Code(core: 4001, name: "invalidArgument")
        /// The operation is not possible in the current state.
        public static let invalidState = Code(core: 4002, name: "invalidState")

        /// A downloaded (offline) video's licence has expired or was invalidated (the seed's
        /// `ExpiredLicense`, 69303): renew it with the offline video manager, online, to play it again.
        public static let offlineLicenseExpired = Code(core: 5001, name: "offlineLicenseExpired")
        /// A downloaded (offline) video's files are missing or damaged in the store (deleted by hand, a
        /// disk restored from backup): delete the download and download it again.
        public static let offlineContentMissing = Code(core: 5002, name: "offlineContentMissing")

        /// The chosen output cannot be opened: an audio device name the sound server does not know, an
        /// X11 display or window that does not exist. Check the name or ID, or pick another output.
        public static let outputUnavailable = Code(core: 6001, name: "outputUnavailable")
        /// 7xxx rights: the rights service refused the stream (a stream or device limit, an entitlement);
        /// the message carries its advice.
        public static let playbackRightsDenied = Code(core: 7001, name: "playbackRightsDenied")

        /// The media engine failed internally (missing plugin, pipeline could not be built).
        public static let engineFailure = Code(core: 9001, name: "engineFailure")

        /// Every core code, in the order of the documentation's table.
        public static let allCore: [Code] = [
            .loadFailed, .noPlayableSource, .failedToPlayToEnd,
            .networkUnreachable, .httpStatus, .notFound, .downloadFailed, .keyAuthorizationFailed,
            .corruptMedia, .unsupportedFormat, .notMedia, .decryptionFailed, .drmUnsupported,
            .invalidArgument, .invalidState,
            .offlineLicenseExpired, .offlineContentMissing,
            .outputUnavailable, .playbackRightsDenied, .engineFailure,
        ]
    }
}
