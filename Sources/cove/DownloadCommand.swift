import ArgumentParser
import CoveCore
import CoveNetworking
import CoveOffline
import CovePlaybackService
import CovePlayerControls
import Foundation
import Logging

/// Where downloads are kept: `--store`, else `$COVE_OFFLINE_STORE`, else `$XDG_DATA_HOME/cove/offline`
/// (`~/.local/share/cove/offline`).
struct StoreOptions: ParsableArguments {
    @Option(help: "The offline store folder (default: $COVE_OFFLINE_STORE, else ~/.local/share/cove/offline).")
    var store: String?

    var root: URL {
        let environment = ProcessInfo.processInfo.environment
        if let store { return URL(fileURLWithPath: store) }
        if let configured = environment["COVE_OFFLINE_STORE"], !configured.isEmpty { return URL(fileURLWithPath: configured) }
        let data =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return data.appendingPathComponent("cove/offline")
    }

    /// The manager for the store; a command is a short-lived app, so downloads another process left
    /// unfinished stay paused until a command resumes them.
    func openManager(connections: Int = OfflineConfiguration().connectionsPerDownload) throws -> OfflineVideoManager {
        do {
            var logger = Logger(label: "cove.offline")
            logger.logLevel = .warning
            return try OfflineVideoManager(
                root: root, transport: AsyncHTTPClientTransport.shared,
                configuration: OfflineConfiguration(connectionsPerDownload: connections, resumesInterruptedDownloads: false), logger: logger
            )
        } catch {
            Terminal.error("cove: \(error)")
            throw ExitCode(1)
        }
    }
}

/// The Playback API options of commands that take a video ID.
struct CatalogOptions: ParsableArguments {
    @Option(help: "Account ID (for a video ID).")
    var account: String?

    @Option(name: .customLong("policy-key"), help: "Policy key. Default: $COVE_POLICY_KEY, which keeps it out of `ps`.")
    var policyKey: String?

    @Option(name: .customLong("auth-token"), help: "Playback Rights JWT. Default: $COVE_AUTH_TOKEN.")
    var authToken: String?

    @Option(name: .customLong("base-url"), help: "Playback API base URL (default: Brightcove's).")
    var baseURL: String?

    /// A URL (or file path) becomes a video of its own; anything else is a video ID in the catalog.
    func video(_ argument: String) async throws -> Video {
        if argument.contains("://") || FileManager.default.fileExists(atPath: argument) { return Video(url: try mediaURL(argument)) }
        guard let account else {
            throw ValidationError("'\(argument)' is not a URL; to download a catalog video by ID, give --account (and --policy-key, --base-url)")
        }
        let access = try CatalogAccess(policyKey: policyKey, authToken: authToken, baseURL: baseURL)
        var configuration = PlaybackServiceConfiguration(authToken: access.authToken)
        configuration.assetID = argument
        let service = PlaybackService(accountID: account, policyKey: access.policyKey, baseURL: access.baseURL, transport: AsyncHTTPClientTransport.shared)
        do throws(PlaybackServiceError) {
            return try await service.findVideo(configuration).value
        } catch {
            Terminal.error("cove: the catalog could not deliver video \(argument): \(error)")
            throw ExitCode(1)
        }
    }
}

struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a video (catalog ID or HLS/DASH URL) for offline playback, with a progress bar.",
        discussion: """
            Running it again for the same video resumes an unfinished download from the bytes already stored. \
            Play the copy with `cove play --offline TOKEN`; list downloads with `cove downloads`.
            """
    )

    @Argument(help: "A catalog video ID (with --account, --policy-key, --base-url) or an HLS/DASH URL.")
    var video: String

    @OptionGroup var store: StoreOptions
    @OptionGroup var catalog: CatalogOptions

    @Option(help: "Download the highest variant at or under this many bits per second (default: the highest).")
    var bitrate: Int?

    @Option(name: .customLong("max-height"), help: "Download no variant taller than this many lines.")
    var maxHeight: Int?

    @Option(parsing: .upToNextOption, help: "Audio renditions by language (default: the default rendition).")
    var audio: [String] = []

    @Option(parsing: .upToNextOption, help: "Caption/subtitle tracks by language (default: every one).")
    var captions: [String] = []

    @Flag(name: .customLong("no-captions"), help: "Store no caption or subtitle track.")
    var noCaptions = false

    @Flag(name: .customLong("no-images"), help: "Store no poster, thumbnail image or thumbnail track.")
    var noImages = false

    @Option(help: "Rental: the copy stops playing this many seconds after the download is requested.")
    var rental: Double?

    @Option(name: .customLong("play-duration"), help: "The copy stops playing this many seconds after it is first played.")
    var playDuration: Double?

    @Flag(help: "Print the size estimate and stop.")
    var estimate = false

    @Option(help: "Files fetched at once (parallel connections to the origin).")
    var connections: Int = OfflineConfiguration().connectionsPerDownload

    func run() async throws {
        guard (1...8).contains(connections) else { throw ValidationError("--connections takes 1 to 8") }
        let manager = try store.openManager(connections: connections)
        let video = try await catalog.video(self.video)
        let parameters = OfflineDownloadParameters(
            requestedBitrate: bitrate, maximumHeight: maxHeight, audioLanguages: audio, captionLanguages: noCaptions ? [] : (captions.isEmpty ? nil : captions),
            includesImages: !noImages, license: OfflineLicenseTerms(rentalDuration: rental, playDuration: playDuration)
        )
        let events = manager.events()
        let token: OfflineVideoToken
        do throws(OfflineError) {
            if estimate {
                let bytes = try await manager.estimateDownloadSize(video, parameters: parameters)
                Terminal.line(String(format: "Estimated size: %.1f MB", Double(bytes) / 1_000_000))
                await manager.close()
                return
            }
            if let done = try Self.existing(of: video, in: manager, where: { $0 == .completed }) {
                Terminal.line("Already downloaded: \(done.token). Play it with: cove play --offline \(done.token)")
                await manager.close()
                return
            }
            if let unfinished = try Self.existing(of: video, in: manager, where: \.isUnfinished) {
                token = unfinished.token
                Terminal.line("Resuming download \(token) (\(String(format: "%.0f", unfinished.downloadPercent)) % stored)")
                try manager.resumeVideoDownload(token)
            } else {
                token = try await manager.requestVideoDownload(video, parameters: parameters)
                Terminal.line("Downloading \(token) to \(manager.root.path)")
            }
        } catch {
            Terminal.error("cove download: \(error)")
            await manager.close()
            throw ExitCode(1)
        }
        try await DownloadProgress.followToTheEnd(token, manager: manager, events: events)
    }

    /// A download of the same video (catalog ID, else source URL) in a state `matching` accepts: an
    /// unfinished one is resumed instead of starting over, a completed one is not downloaded again.
    static func existing(
        of video: Video, in manager: OfflineVideoManager, where matching: (OfflineDownloadState) -> Bool
    ) throws(OfflineError) -> OfflineVideoStatus? {
        let source = video.sources.first?.url.absoluteString
        return try manager.offlineVideoStatus().first { status in
            guard matching(status.state) else { return false }
            if let id = video.id { return status.videoID == id }
            return status.videoID == nil && source.map { status.sourceURL == Redaction.redact(urlString: $0) } == true
        }
    }
}

/// Draws a download's progress bar until it settles; Ctrl-C pauses it.
enum DownloadProgress {
    enum Outcome { case completed, failed, interrupted }

    /// Follows the download, closes the manager and exits as the CLI does: 0 complete, 1 failed, 130 Ctrl-C.
    static func followToTheEnd(_ token: OfflineVideoToken, manager: OfflineVideoManager, events: AsyncStream<OfflineEvent>) async throws {
        let outcome = await follow(token, manager: manager, events: events)
        await manager.close()
        switch outcome {
        case .completed: break
        case .failed: throw ExitCode(1)
        case .interrupted: throw ExitCode(130)
        }
    }

    static func follow(_ token: OfflineVideoToken, manager: OfflineVideoManager, events: AsyncStream<OfflineEvent>) async -> Outcome {
        let status = StatusLine()
        let started = Date()
        let interrupted = Flag()
        let stop = Interrupt.install {
            interrupted.set()
            Task {
                do {
                    try await manager.pauseVideoDownload(token)
                    // Completed or failed while pausing: its own event ends the loop below.
                } catch {
                    // Not pausable (or the index refused): closing ends the event stream, so this still returns.
                    Terminal.error("cove download: \(error)")
                    await manager.close()
                }
            }
        }
        defer {
            stop.cancel()
            signal(SIGINT, SIG_DFL)
        }
        var firstBytes: Int64?
        for await event in events where event.token == token {
            switch event {
            case .progress(_, let bytes, let total):
                if firstBytes == nil { firstBytes = bytes }
                status.update(bar(bytes: bytes, total: total, since: started, startBytes: firstBytes ?? 0))
            case .completed:
                status.finish()
                let final = try? manager.status(of: token)
                let seconds = Date().timeIntervalSince(started)
                let size = String(format: "%.1f MB in %.1f s", Double(final?.bytesDownloaded ?? 0) / 1_000_000, seconds)
                Terminal.line("Downloaded \(token): \(final?.fileCount ?? 0) files, \(size). Play it with: cove play --offline \(token)")
                return .completed
            case .failed(_, let error):
                status.finish()
                Terminal.error("cove download: \(error)")
                Terminal.error("Resume it with: cove downloads resume \(token)")
                return .failed
            case .paused:
                status.finish()
                Terminal.line("Paused \(token); resume it with: cove downloads resume \(token)")
                return interrupted.isSet ? .interrupted : .failed
            case .cancelled, .deleted:
                status.finish()
                return .failed
            default:
                break
            }
        }
        return interrupted.isSet ? .interrupted : .failed
    }

    static func bar(bytes: Int64, total: Int64, since start: Date, startBytes: Int64) -> String {
        let fraction = total > 0 ? min(1, Double(bytes) / Double(total)) : 0
        let width = 24
        let filled = Int(fraction * Double(width))
        let elapsed = max(Date().timeIntervalSince(start), 0.001)
        let rate = Double(bytes - startBytes) / elapsed
        let eta = rate > 0 ? Double(max(total - bytes, 0)) / rate : nil
        let figures = String(format: "%3.0f%%  %.1f/%.1f MB  %.1f MB/s", fraction * 100, Double(bytes) / 1_000_000, Double(total) / 1_000_000, rate / 1_000_000)
        return "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled) + "] " + figures + "  ETA "
            + (eta.map { Terminal.clock($0) } ?? "--:--")
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}
