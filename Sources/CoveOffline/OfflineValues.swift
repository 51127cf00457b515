import CoveCore
import Foundation

/// Names one download in the store (the seed's `BCOVOfflineVideoToken`, a string). Stable across
/// launches: an app keeps it to list, play, pause or delete the download later.
public struct OfflineVideoToken: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// A token may be typed by a user (`cove downloads delete TOKEN`): letters, digits and `-` only, so it
    /// is also a safe folder name and URL host.
    public init?(validating text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(trimmed.count), trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        rawValue = trimmed.lowercased()
    }

    static func make() -> OfflineVideoToken { OfflineVideoToken(rawValue: UUID().uuidString.lowercased()) }

    public var description: String { rawValue }
    public static func < (lhs: OfflineVideoToken, rhs: OfflineVideoToken) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where a download stands (the seed's `BCOVOfflineVideoDownloadState`, same raw values).
public enum OfflineDownloadState: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Waiting for a free download slot.
    case requested = 0
    case downloading = 1
    /// Paused by the app (or interrupted by the process ending); resumes from the bytes already stored.
    case paused = 2
    case cancelled = 3
    case completed = 4
    /// Stopped by an error (`OfflineVideoStatus.error` says which); resume tries again.
    case failed = 5

    public var description: String {
        switch self {
        case .requested: return "requested"
        case .downloading: return "downloading"
        case .paused: return "paused"
        case .cancelled: return "cancelled"
        case .completed: return "completed"
        case .failed: return "error"
        }
    }

    /// Still to finish: resume (or the scheduler) can carry it on.
    public var isUnfinished: Bool { self == .requested || self == .downloading || self == .paused || self == .failed }
}

/// One download's status (the seed's `BCOVOfflineVideoStatus`), with exact byte counts.
public struct OfflineVideoStatus: Sendable, Hashable {
    public let token: OfflineVideoToken
    public let state: OfflineDownloadState
    /// The name shown in lists: the request's display name, else the video's name, else its URL's file.
    public let displayName: String
    /// The catalog video's ID, when it came from the Playback Service.
    public let videoID: String?
    /// The manifest it was downloaded from (redacted: no token or signature in its query).
    public let sourceURL: String
    public let requestedAt: Date
    public let downloadStartTime: Date?
    public let downloadEndTime: Date?
    /// Bytes stored (finished files plus the parts of unfinished ones).
    public let bytesDownloaded: Int64
    /// The download's size as far as it is known: exact for finished files and byte ranges, estimated from
    /// declared bitrates for the rest.
    public let estimatedTotalBytes: Int64
    /// Files finished, of all the download's files.
    public let filesCompleted: Int
    public let fileCount: Int
    /// Why it stopped, when `state` is `.failed`.
    public let error: OfflineError?
    /// When its licence runs out (nil: never, a purchase).
    public let licenseExpiration: Date?

    /// 0…100, by bytes.
    public var downloadPercent: Double {
        guard estimatedTotalBytes > 0 else { return state == .completed ? 100 : 0 }
        return min(100, Double(bytesDownloaded) / Double(estimatedTotalBytes) * 100)
    }
}

/// How long a download may be played (the seed's FairPlay licence parameters, applied by Cove to clear and
/// AES-128 downloads alike). Checked on every offline request, so a video that expires while it plays stops.
public struct OfflineLicenseTerms: Sendable, Hashable, Codable {
    /// Seconds from the request after which the download no longer plays (`RentalDurationKey`); nil: a
    /// purchase, never expires.
    public var rentalDuration: Double?
    /// Seconds from the first offline play after which it no longer plays (`PlayDurationKey`, "dual expiry").
    public var playDuration: Double?

    public init(rentalDuration: Double? = nil, playDuration: Double? = nil) {
        self.rentalDuration = rentalDuration
        self.playDuration = playDuration
    }

    /// Never expires (`PurchaseKey`).
    public static let purchase = OfflineLicenseTerms()

    public static func rental(seconds: Double, playDuration: Double? = nil) -> OfflineLicenseTerms {
        OfflineLicenseTerms(rentalDuration: seconds, playDuration: playDuration)
    }

    func validate() throws(OfflineError) {
        for (name, value) in [("rental duration", rentalDuration), ("play duration", playDuration)] {
            if let value, !(value.isFinite && value > 0) {
                throw OfflineError(.invalidParameter, "The \(name) must be a positive number of seconds, not \(value)")
            }
        }
    }
}

/// What to download of a video (the seed's download parameters and media selections).
public struct OfflineDownloadParameters: Sendable, Hashable, Codable {
    /// The variant: the highest whose declared bandwidth is at most this (bits per second); the lowest
    /// when none is; nil: the highest (`RequestedBitrateKey`).
    public var requestedBitrate: Int?
    /// The variant: the highest no taller than this many lines; nil: no limit.
    public var maximumHeight: Int?
    /// Audio renditions by language (BCP 47, `en` matches `en-US`); empty: the default rendition.
    public var audioLanguages: [String]
    /// Caption and subtitle tracks by language; nil: every one; empty: none.
    public var captionLanguages: [String]?
    /// Also store the poster, the thumbnail image and the thumbnail track with its images.
    public var includesImages: Bool
    /// Shown in lists instead of the video's name (`DisplayNameKey`).
    public var displayName: String?
    public var license: OfflineLicenseTerms

    public init(
        requestedBitrate: Int? = nil, maximumHeight: Int? = nil, audioLanguages: [String] = [], captionLanguages: [String]? = nil,
        includesImages: Bool = true, displayName: String? = nil, license: OfflineLicenseTerms = .purchase
    ) {
        self.requestedBitrate = requestedBitrate
        self.maximumHeight = maximumHeight
        self.audioLanguages = audioLanguages
        self.captionLanguages = captionLanguages
        self.includesImages = includesImages
        self.displayName = displayName
        self.license = license
    }

    func validate() throws(OfflineError) {
        if let requestedBitrate, requestedBitrate <= 0 {
            throw OfflineError(.invalidParameter, "The requested bitrate must be positive bits per second, not \(requestedBitrate)")
        }
        if let maximumHeight, maximumHeight <= 0 {
            throw OfflineError(.invalidParameter, "The maximum height must be a positive number of lines, not \(maximumHeight)")
        }
        try license.validate()
    }
}

/// Everything the manager reports, in order, as one `AsyncSequence` element type (the seed's delegate
/// callbacks, and its download analytics events).
public enum OfflineEvent: Sendable, Hashable {
    /// A download was accepted and queued (`video_download_request`).
    case requested(OfflineVideoToken, estimatedBytes: Int64)
    case started(OfflineVideoToken)
    /// Bytes stored so far against the (estimated) total; at most a few times a second per download.
    case progress(OfflineVideoToken, bytesDownloaded: Int64, estimatedTotalBytes: Int64)
    /// One file of the download finished and was verified.
    case fileCompleted(OfflineVideoToken, path: String, bytes: Int64)
    case paused(OfflineVideoToken)
    /// Finished: every file stored and verified (`video_download_complete`).
    case completed(OfflineVideoToken)
    /// Cancelled by the app; its files are gone (`video_download_cancellation`).
    case cancelled(OfflineVideoToken)
    /// Stopped by an error (`video_download_error`).
    case failed(OfflineVideoToken, OfflineError)
    case deleted(OfflineVideoToken)
    /// The licence was renewed or invalidated.
    case licenseChanged(OfflineVideoToken, expiration: Date?)
    /// The store's used bytes changed (a download finished, was cancelled or deleted).
    case storageChanged(usedBytes: Int64)

    public var token: OfflineVideoToken? {
        switch self {
        case .requested(let t, _), .started(let t), .progress(let t, _, _), .fileCompleted(let t, _, _), .paused(let t), .completed(let t),
            .cancelled(let t), .failed(let t, _), .deleted(let t), .licenseChanged(let t, _):
            return t
        case .storageChanged: return nil
        }
    }

    /// The seed's analytics event name for this event, when it is one of the download events the
    /// analytics module sends (`video_download_request`, `…_complete`, `…_cancellation`, `…_error`).
    public var analyticsEventName: String? {
        switch self {
        case .requested: return "video_download_request"
        case .completed: return "video_download_complete"
        case .cancelled: return "video_download_cancellation"
        case .failed: return "video_download_error"
        default: return nil
        }
    }
}
