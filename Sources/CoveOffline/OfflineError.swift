import CoveCore
import CoveStreaming
import Foundation

/// Why the offline video manager refused or failed: a code (the seed's `BCOVOfflineVideoManagerErrorCode`
/// values where the seed has one, 69300–69304) and a sentence that says what was wrong and what to do.
/// Never carries a key, a token or a secret query value.
public struct OfflineError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public let rawValue: Int
        public let name: String

        init(_ rawValue: Int, _ name: String) {
            self.rawValue = rawValue
            self.name = name
        }

        public var description: String { name }

        /// A parameter was wrong: an audio or caption language the video does not have, a negative
        /// duration (the seed's `InvalidParameter`).
        public static let invalidParameter = Code(69_300, "invalidParameter")
        /// The video cannot be downloaded by Cove: live, DRM-protected, SSAI-only, no downloadable source
        /// (the seed's `Unsupported`).
        public static let unsupported = Code(69_301, "unsupported")
        /// A file of the download failed after its retries; the message names it (the seed's `DownloadFailure`).
        public static let downloadFailure = Code(69_302, "downloadFailure")
        /// The download's licence has expired: renew it (online) to play again (the seed's `ExpiredLicense`).
        public static let expiredLicense = Code(69_303, "expiredLicense")
        /// The licence was invalidated (the seed's `InvalidLicense`).
        public static let invalidLicense = Code(69_304, "invalidLicense")
        /// The catalog says this video may not be downloaded (`offline_enabled` is false).
        public static let notDownloadable = Code(69_310, "notDownloadable")
        /// No download has this token (never requested, or deleted).
        public static let unknownToken = Code(69_311, "unknownToken")
        /// The operation does not fit the download's state (playing one that is not complete, resuming a
        /// completed one).
        public static let invalidState = Code(69_312, "invalidState")
        /// The store's storage limit would be passed.
        public static let storageLimitReached = Code(69_313, "storageLimitReached")
        /// The store could not write or read a file (read-only folder, full disk).
        public static let storageFailed = Code(69_314, "storageFailed")
        /// Another offline video manager (in this or another process) holds the store.
        public static let storeInUse = Code(69_315, "storeInUse")
        /// A completed download's files are missing or altered on disk: delete it and download it again.
        public static let contentMissing = Code(69_316, "contentMissing")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = Redaction.redactSecrets(in: message)
    }

    public var description: String { "\(code.name) (\(code.rawValue)): \(message)" }

    /// A streaming failure while downloading `what` (a file of the download, named for the message).
    static func download(_ error: StreamingError, what: String) -> OfflineError {
        switch error.code {
        case .storageFailed: return OfflineError(.storageFailed, "Storing \(what) failed: \(error.message)")
        case .drmUnsupported: return OfflineError(.unsupported, error.message)
        default: return OfflineError(.downloadFailure, "Downloading \(what) failed: \(error.message)")
        }
    }

    /// The same failure as the controller's error type (offline playback).
    public var playbackError: PlaybackError {
        switch code {
        case .expiredLicense, .invalidLicense: return PlaybackError(.offlineLicenseExpired, message)
        case .contentMissing, .unknownToken: return PlaybackError(.offlineContentMissing, message)
        case .invalidParameter: return PlaybackError(.invalidArgument, message)
        case .invalidState: return PlaybackError(.invalidState, message)
        default: return PlaybackError(.loadFailed, message)
        }
    }
}
