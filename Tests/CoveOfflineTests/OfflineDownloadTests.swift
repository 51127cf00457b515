import CoveCore
import CoveNetworking
import CoveOffline
import CoveStreaming
import CoveTesting
import Foundation
import Testing

/// Downloads against a real served title through the real HTTP client: what is stored, how it is
/// verified, and every refusal and failure as a typed error that leaves other downloads alone.
@Suite("Offline downloads", .serialized)
struct OfflineDownloadTests {
    /// Everything the parameters choose is stored byte for byte, each file's SHA-256 recorded, the
    /// events in order with the seed's analytics names, and the copy's playlists point at the stored files.
    @Test func storesTheChosenTracksByteForByte() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        let manager = try h.manager()
        let log = OfflineEventLog(manager)
        let estimate = try await manager.estimateDownloadSize(h.video, parameters: OfflineDownloadParameters(audioLanguages: ["en", "fr"]))
        let token = try await manager.requestVideoDownload(h.video, parameters: OfflineDownloadParameters(audioLanguages: ["en", "fr"]))
        let status = try #require(await manager.waitUntilSettled(token))
        #expect(status.state == .completed, "\(String(describing: status.error))")
        let files = try manager.storedFiles(of: token)
        #expect(try h.mismatches(files).isEmpty)
        let paths = files.map(\.path)
        #expect(paths.filter { $0.hasPrefix("video/") }.count == 10, "20 s of 2 s segments at one variant")
        // ffmpeg cuts the audio into 11 segments (its last one holds the final AAC frames).
        let audioSegments = try h.fixture.files(under: "package/English").filter { $0.pathExtension == "ts" }.count
        #expect(paths.filter { $0.hasPrefix("audio-0/") }.count == audioSegments && paths.filter { $0.hasPrefix("audio-1/") }.count == audioSegments)
        #expect(paths.filter { $0.hasPrefix("text-0/") }.count == 10, "the in-manifest subtitle rendition")
        #expect(paths.contains("captions/0.vtt"), "the catalog's caption track")
        #expect(paths.contains { $0.hasPrefix("images/poster") } && paths.contains { $0.hasPrefix("thumbnails/") })
        #expect(files.allSatisfy { $0.origin.contains("/v720/") || !$0.origin.contains("/v240/") }, "the top variant only")
        let stored = files.compactMap(\.length).reduce(0, +)
        #expect(status.bytesDownloaded == stored && status.estimatedTotalBytes == stored)
        // Declared bitrates put the estimate near what was stored.
        #expect(Double(estimate) > 0.7 * Double(stored) && Double(estimate) < 1.5 * Double(stored), "estimate \(estimate) vs stored \(stored)")
        let master = try String(contentsOf: h.root.appendingPathComponent("downloads/\(token)/master.m3u8"), encoding: .utf8)
        #expect(
            master.contains("TYPE=AUDIO") && master.contains("LANGUAGE=\"fr\"") && master.contains("TYPE=SUBTITLES") && master.contains("RESOLUTION=1280x720"))
        await log.waitFor { $0 == .completed(token) }
        let names = log.events.filter { $0.token == token }.compactMap(\.analyticsEventName)
        #expect(names == ["video_download_request", "video_download_complete"])
        let order = log.events.filter { $0.token == token }.map { "\($0)".prefix(while: { $0 != "(" }) }
        #expect(order.first == "requested" && order.dropFirst().first == "started", "\(order)")
        #expect(try manager.verify(token).isEmpty)
        // Nothing else is fetched once the plan is made: each file once (the catalog track and images too).
        let mediaRequests = h.server.requests.filter { $0.path.hasSuffix(".ts") }
        #expect(Set(mediaRequests.map(\.path)).count == mediaRequests.count)
        await manager.close()
    }

    /// A segment that keeps answering 404 is retried, then the download stops with an error naming it;
    /// another download running beside it completes untouched.
    @Test func aMissingSegmentFailsTheDownloadNamingItAndSparesTheOthers() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        h.server.forceStatus(404, forPathsContaining: "/v720/seg005.ts")
        let manager = try h.manager(OfflineConfiguration(maxConcurrentDownloads: 2))
        let broken = try await manager.requestVideoDownload(h.video, parameters: OfflineDownloadParameters(captionLanguages: [], includesImages: false))
        let healthy = try await manager.requestVideoDownload(
            h.video, parameters: OfflineDownloadParameters(requestedBitrate: 500_000, captionLanguages: [], includesImages: false))
        let failed = try #require(await manager.waitUntilSettled(broken))
        let done = try #require(await manager.waitUntilSettled(healthy))
        #expect(failed.state == .failed)
        let error = try #require(failed.error)
        #expect(error.code == .downloadFailure, "\(error)")
        #expect(error.message.contains("video/00005.ts") && error.message.contains("seg005.ts") && error.message.contains("404"), "\(error)")
        #expect(h.server.requests.filter { $0.path.hasSuffix("/v720/seg005.ts") }.count >= 1)
        #expect(done.state == .completed)
        #expect(try h.mismatches(try manager.storedFiles(of: healthy)).isEmpty)
        // Fixed on the server, resume finishes it from what it had.
        h.server.clearForcedStatuses()
        let before = h.server.requests.filter { $0.path.hasSuffix(".ts") }.count
        try manager.resumeVideoDownload(broken)
        #expect(try #require(await manager.waitUntilSettled(broken)).state == .completed)
        let refetched = h.server.requests.filter { $0.path.hasSuffix(".ts") }.dropFirst(before)
        #expect(refetched.allSatisfy { !$0.path.contains("seg000") }, "finished files are not fetched again")
        await manager.close()
    }

    /// A connection cut in the middle of a segment: the retry asks only for the rest (`Range`), and the
    /// stored file is whole.
    @Test func aCutSegmentResumesFromTheBytesAlreadyStored() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        h.server.cutResponses(forPathsContaining: "/v720/seg003.ts", afterBytes: 200_000)
        let manager = try h.manager()
        let token = try await manager.requestVideoDownload(h.video, parameters: OfflineDownloadParameters(captionLanguages: [], includesImages: false))
        #expect(try #require(await manager.waitUntilSettled(token)).state == .completed)
        let requests = h.server.requests.filter { $0.path.hasSuffix("/v720/seg003.ts") }
        #expect(requests.count == 2, "\(requests)")
        #expect(requests.last?.range?.hasPrefix("bytes=") == true && requests.last?.range?.hasPrefix("bytes=0-") == false, "\(requests)")
        let fetched = requests.map(\.bytesSent).reduce(0, +)
        let size = try Data(contentsOf: h.fixture.root.appendingPathComponent("package/v720/seg003.ts")).count
        // Starting over would cost the whole file again after the cut; resuming costs only what was in flight.
        #expect(fetched < size + requests[0].bytesSent, "resumed, not fetched again: \(fetched) for \(size)")
        #expect(try h.mismatches(try manager.storedFiles(of: token)).isEmpty)
        await manager.close()
    }

    @Test func aVideoTheCatalogDoesNotAllowOfflineIsRefusedTyped() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        let manager = try h.manager()
        let video = h.fixture.video(on: h.server.baseURL, offlineEnabled: false)
        let error = await #expect(throws: OfflineError.self) { try await manager.requestVideoDownload(video) }
        #expect(error?.code == .notDownloadable)
        #expect(error?.message.contains("offline_enabled") == true)
        #expect(h.server.requests.isEmpty, "refused before any request")
        #expect(try manager.offlineVideoStatus().isEmpty)
        await manager.close()
    }

    /// Languages the title lacks, a live stream, a source Cove cannot download: typed, before storing anything.
    @Test func badParametersAndUndownloadableSourcesAreTypedErrors() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        let manager = try h.manager()
        let audio = await #expect(throws: OfflineError.self) {
            try await manager.requestVideoDownload(h.video, parameters: OfflineDownloadParameters(audioLanguages: ["de"]))
        }
        #expect(audio?.code == .invalidParameter && audio?.message.contains("en, fr") == true, "\(String(describing: audio))")
        let captions = await #expect(throws: OfflineError.self) {
            try await manager.requestVideoDownload(h.video, parameters: OfflineDownloadParameters(captionLanguages: ["ja"]))
        }
        #expect(captions?.code == .invalidParameter, "\(String(describing: captions))")
        let bitrate = await #expect(throws: OfflineError.self) {
            try await manager.requestVideoDownload(h.video, parameters: OfflineDownloadParameters(requestedBitrate: -1))
        }
        #expect(bitrate?.code == .invalidParameter)
        // An MP4 rendition downloads (one audio track: no language to choose); a protected one does not.
        let mp4Audio = await #expect(throws: OfflineError.self) {
            try await manager.requestVideoDownload(Video(url: h.server.url("package/clip.mp4")), parameters: OfflineDownloadParameters(audioLanguages: ["fr"]))
        }
        #expect(mp4Audio?.code == .invalidParameter && mp4Audio?.message.contains("one audio track") == true, "\(String(describing: mp4Audio))")
        let widevine = Source(
            url: h.server.url("package/clip.mp4"),
            properties: ["type": "video/mp4", "key_systems": .object(["com.widevine.alpha": .object(["license_url": "https://licence.example/wv"])])])
        let protected = await #expect(throws: OfflineError.self) { try await manager.requestVideoDownload(Video(sources: [widevine], properties: [:])) }
        #expect(protected?.code == .unsupported && protected?.message.contains("MP4") == true, "\(String(describing: protected))")
        h.server.addRoute(prefix: "/live.m3u8") { _ in
            MediaServerResponse(
                status: 200, contentType: "application/vnd.apple.mpegurl",
                body: Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\npackage/v240/seg000.ts\n".utf8))
        }
        let live = await #expect(throws: OfflineError.self) { try await manager.requestVideoDownload(Video(url: h.server.url("live.m3u8"))) }
        #expect(live?.code == .unsupported && live?.message.contains("live") == true, "\(String(describing: live))")
        h.server.addRoute(prefix: "/portal.m3u8") { _ in
            MediaServerResponse(status: 200, contentType: "text/html", body: Data("<html><body>Sign in</body></html>".utf8))
        }
        let portal = await #expect(throws: OfflineError.self) { try await manager.requestVideoDownload(Video(url: h.server.url("portal.m3u8"))) }
        #expect(portal?.code == .unsupported && portal?.message.contains("HTML") == true, "\(String(describing: portal))")
        #expect(try manager.offlineVideoStatus().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.root.appendingPathComponent("downloads").path).isEmpty)
        await manager.close()
    }

    @Test func theStorageLimitRefusesADownloadThatWouldPassIt() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        let manager = try h.manager(OfflineConfiguration(storageLimit: 4_000_000))
        let small = try await manager.requestVideoDownload(
            h.video, parameters: OfflineDownloadParameters(requestedBitrate: 500_000, captionLanguages: [], includesImages: false))
        #expect(try #require(await manager.waitUntilSettled(small)).state == .completed)
        let error = await #expect(throws: OfflineError.self) { try await manager.requestVideoDownload(h.video) }
        #expect(error?.code == .storageLimitReached, "\(String(describing: error))")
        #expect(error?.message.contains("4.0 MB") == true, "\(String(describing: error))")
        #expect(try manager.offlineVideoStatus().map(\.token) == [small], "nothing recorded for the refused one")
        #expect(try manager.verify(small).isEmpty, "the stored download is untouched")
        await manager.close()
    }

    @Test func anUnknownTokenIsATypedErrorEverywhere() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        let manager = try h.manager()
        let token = OfflineVideoToken(rawValue: "no-such-download")
        #expect(throws: OfflineError.self) { try manager.status(of: token) }
        #expect(throws: OfflineError.self) { try manager.videoObject(fromOfflineVideoToken: token) }
        #expect(throws: OfflineError.self) { try manager.resumeVideoDownload(token) }
        await #expect(throws: OfflineError.self) { try await manager.deleteOfflineVideo(token) }
        do {
            _ = try manager.videoObject(fromOfflineVideoToken: token)
        } catch {
            #expect(error.code == .unknownToken && error.message.contains("no-such-download"))
        }
        #expect(OfflineVideoToken(validating: "../../etc") == nil, "a token is never a path")
        await manager.close()
    }

    /// Two managers on one store are refused (in this process and from another), not shared: they would
    /// race on the same files. Closing the first releases the store.
    @Test func aSecondManagerOnTheSameStoreIsRefused() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        let first = try h.manager()
        let error = #expect(throws: OfflineError.self) { try h.manager() }
        #expect(error?.code == .storeInUse && error?.message.contains("\(getpid())") == true, "\(String(describing: error))")
        let other = try await ProcessRunner.run(OfflineKillTests.binary.path, ["downloads", "--store", h.root.path])
        #expect(other.status == 1 && other.errorOutput.contains("storeInUse"), "\(other.errorOutput)")
        await first.close()
        let second = try h.manager()
        await second.close()
    }

    /// A completed download whose file was deleted by hand: detected before playing, with the way out.
    @Test func aDeletedFileUnderACompletedDownloadIsDetected() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        let manager = try h.manager()
        let token = try await manager.requestVideoDownload(
            h.video, parameters: OfflineDownloadParameters(requestedBitrate: 500_000, captionLanguages: [], includesImages: false))
        #expect(try #require(await manager.waitUntilSettled(token)).state == .completed)
        _ = try manager.videoObject(fromOfflineVideoToken: token)
        try FileManager.default.removeItem(at: h.root.appendingPathComponent("downloads/\(token)/video/00004.ts"))
        let error = #expect(throws: OfflineError.self) { try manager.videoObject(fromOfflineVideoToken: token) }
        #expect(error?.code == .contentMissing && error?.message.contains("video/00004.ts") == true && error?.message.contains("download it again") == true)
        #expect(try manager.verify(token) == ["video/00004.ts"])
        try await manager.deleteOfflineVideo(token)
        #expect(try manager.offlineVideoStatus().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: h.root.appendingPathComponent("downloads/\(token)").path))
        await manager.close()
    }

    /// A write that fails in the middle of a download (its folder became unwritable) stops that download
    /// with a typed storage error naming the file; the store and other downloads carry on.
    @Test func aDiskWriteFailureStopsTheDownloadTyped() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        h.server.setBandwidth(bitsPerSecond: 16_000_000)
        let manager = try h.manager(OfflineConfiguration(connectionsPerDownload: 1))
        let log = OfflineEventLog(manager)
        let token = try await manager.requestVideoDownload(h.video, parameters: OfflineDownloadParameters(captionLanguages: [], includesImages: false))
        await log.waitFor { if case .fileCompleted(token, let path, _) = $0 { path.hasPrefix("audio-0/") } else { false } }
        // Where the next files go is now a file, not a folder: no write there can succeed (even as root).
        let audio = h.root.appendingPathComponent("downloads/\(token)/audio-0")
        let moved = h.root.appendingPathComponent("moved-audio")
        try FileManager.default.moveItem(at: audio, to: moved)
        try Data("not a folder".utf8).write(to: audio)
        h.server.setBandwidth(bitsPerSecond: nil)
        let status = try #require(await manager.waitUntilSettled(token))
        #expect(status.state == .failed)
        #expect(status.error?.code == .storageFailed && status.error?.message.contains("audio-0/") == true, "\(String(describing: status.error))")
        // The rest of the store works: another download completes.
        let other = try await manager.requestVideoDownload(
            h.video, parameters: OfflineDownloadParameters(requestedBitrate: 500_000, captionLanguages: [], includesImages: false))
        #expect(try #require(await manager.waitUntilSettled(other)).state == .completed)
        await manager.close()
    }

    /// A store root that cannot be created is a typed error at once.
    @Test func anUnwritableStoreRootIsATypedError() async throws {
        let error = #expect(throws: OfflineError.self) {
            try OfflineVideoManager(root: URL(fileURLWithPath: "/proc/cove-offline-store"), transport: AsyncHTTPClientTransport.shared)
        }
        #expect(error?.code == .storageFailed && error?.message.contains("/proc/cove-offline-store") == true, "\(String(describing: error))")
    }

    /// Pause keeps what was stored, resume finishes from there, cancel removes the files, delete forgets
    /// the download; the concurrency limit holds the second download back until the first ends.
    @Test func pauseResumeCancelDeleteAndTheConcurrencyLimit() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        h.server.setBandwidth(bitsPerSecond: 20_000_000)
        let manager = try h.manager(OfflineConfiguration(maxConcurrentDownloads: 1))
        let log = OfflineEventLog(manager)
        let first = try await manager.requestVideoDownload(h.video, parameters: OfflineDownloadParameters(captionLanguages: [], includesImages: false))
        let second = try await manager.requestVideoDownload(
            h.video, parameters: OfflineDownloadParameters(requestedBitrate: 500_000, captionLanguages: [], includesImages: false))
        await log.waitFor { if case .fileCompleted(first, _, _) = $0 { true } else { false } }
        #expect(try manager.status(of: second).state == .requested, "one download at a time")
        try await manager.pauseVideoDownload(first)
        let paused = try manager.status(of: first)
        #expect(paused.state == .paused && paused.filesCompleted > 0)
        let secondDone = try #require(await manager.waitUntilSettled(second))
        #expect(secondDone.state == .completed, "the next in line starts when the first pauses")
        h.server.setBandwidth(bitsPerSecond: nil)
        let requestsBefore = h.server.requests.count
        try manager.resumeVideoDownload(first)
        #expect(try #require(await manager.waitUntilSettled(first)).state == .completed)
        let resumedPaths = h.server.requests.dropFirst(requestsBefore).map(\.path)
        #expect(!resumedPaths.contains { $0.hasSuffix(".m3u8") }, "resume works from the index, no manifest refetch")
        #expect(resumedPaths.count <= paused.fileCount - paused.filesCompleted, "only what was not finished: \(resumedPaths)")
        #expect(try h.mismatches(try manager.storedFiles(of: first)).isEmpty)
        await #expect(throws: OfflineError.self) { try await manager.cancelVideoDownload(first) }
        let third = try await manager.requestVideoDownload(h.video, parameters: OfflineDownloadParameters(captionLanguages: [], includesImages: false))
        try await manager.cancelVideoDownload(third)
        #expect(try manager.status(of: third).state == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: h.root.appendingPathComponent("downloads/\(third)").path))
        await log.waitFor { $0 == .cancelled(third) }
        #expect(log.events.contains { $0.token == third && $0.analyticsEventName == "video_download_cancellation" })
        try await manager.deleteOfflineVideo(third)
        #expect(try manager.offlineVideoStatus().map(\.token).sorted() == [first, second].sorted())
        await manager.close()
    }

    /// A process that ends mid-download leaves it resumable: the next manager on the store carries it on
    /// by itself (Media3's behaviour), or leaves it paused when asked to.
    @Test func theNextManagerResumesWhatAnEarlierOneLeftUnfinished() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        h.server.setBandwidth(bitsPerSecond: 16_000_000)
        let parameters = OfflineDownloadParameters(captionLanguages: [], includesImages: false)
        /// Starts a download and closes the manager once it has stored a file (an app that quits mid-download).
        func interrupted() async throws -> OfflineVideoToken {
            let manager = try h.manager()
            let log = OfflineEventLog(manager)
            let token = try await manager.requestVideoDownload(h.video, parameters: parameters)
            await log.waitFor { if case .fileCompleted(token, _, _) = $0 { true } else { false } }
            await manager.close()
            return token
        }
        let first = try await interrupted()
        h.server.setBandwidth(bitsPerSecond: nil)
        let next = try h.manager()
        #expect(try #require(await next.waitUntilSettled(first)).state == .completed)
        #expect(try h.mismatches(try next.storedFiles(of: first)).isEmpty)
        await next.close()
        h.server.setBandwidth(bitsPerSecond: 16_000_000)
        let second = try await interrupted()
        h.server.setBandwidth(bitsPerSecond: nil)
        let holding = try h.manager(OfflineConfiguration(resumesInterruptedDownloads: false))
        #expect(try holding.status(of: second).state == .paused)
        try holding.resumeVideoDownload(second)
        #expect(try #require(await holding.waitUntilSettled(second)).state == .completed)
        #expect(try h.mismatches(try holding.storedFiles(of: second)).isEmpty)
        await holding.close()
    }
}
