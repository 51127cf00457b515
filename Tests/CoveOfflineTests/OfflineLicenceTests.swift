import CoveCore
import CoveNetworking
import CoveOffline
import CoveTesting
import Foundation
import Synchronization
import Testing

/// Licence terms against a clock the test moves: the rental runs from the request, the play duration from
/// the first offline play (the seed's dual expiry), invalidation is immediate, renewal starts again.
@Suite("Offline licences", .serialized)
struct OfflineLicenceTests {
    final class TestClock: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
        func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    }

    /// Asks the store for the copy's master playlist, as a player starting it would.
    static func play(_ video: Video) async throws(HTTPTransportError) -> HTTPResponse {
        try await AsyncHTTPClientTransport.shared.get(video.sources[0].url)
    }

    @Test func thePlayDurationRunsFromTheFirstPlayAndInvalidationIsImmediate() async throws {
        let h = try await OfflineHarness.start()
        defer { Task { await h.stop() } }
        let clock = TestClock()
        let manager = try h.manager(OfflineConfiguration(now: { clock.now() }))
        let terms = OfflineLicenseTerms.rental(seconds: 86_400, playDuration: 3_600)
        // The rental runs from the request: its end lies between these two moments plus a day (a loaded CI
        // machine once took over 5 s to download, so a fixed tolerance around "now" failed).
        let requestedFrom = clock.now()
        let token = try await manager.requestVideoDownload(
            h.video, parameters: OfflineDownloadParameters(requestedBitrate: 500_000, captionLanguages: [], includesImages: false, license: terms))
        let requestedTo = clock.now()
        #expect(try #require(await manager.waitUntilSettled(token)).state == .completed)
        // Not played yet: only the rental bounds it, however long it waits within it.
        clock.advance(7_200)
        let video = try manager.videoObject(fromOfflineVideoToken: token)
        let expiry = try #require(try manager.status(of: token).licenseExpiration)
        #expect(
            expiry >= requestedFrom.addingTimeInterval(86_400 - 1) && expiry <= requestedTo.addingTimeInterval(86_400 + 1),
            "the rental's end: \(expiry), requested between \(requestedFrom) and \(requestedTo)")
        let playedFrom = clock.now()
        #expect(try await Self.play(video).status == 200)
        let playedTo = clock.now()
        // Played: an hour from the first play.
        let afterPlay = try #require(try manager.status(of: token).licenseExpiration)
        #expect(
            afterPlay >= playedFrom.addingTimeInterval(3_600 - 1) && afterPlay <= playedTo.addingTimeInterval(3_600 + 1),
            "the play duration from the first play: \(afterPlay), played between \(playedFrom) and \(playedTo)")
        clock.advance(1_800)
        #expect(try await Self.play(video).status == 200, "a later play does not restart the clock")
        clock.advance(1_900)
        let expired = #expect(throws: OfflineError.self) { try manager.videoObject(fromOfflineVideoToken: token) }
        #expect(expired?.code == .expiredLicense)
        await #expect(throws: HTTPTransportError.self) { try await Self.play(video) }
        do {
            _ = try await Self.play(video)
        } catch {
            #expect(error.kind == .offlineLicenseExpired && error.detail.contains("renew"), "\(error)")
        }
        try manager.renewLicense(token, terms: terms)
        #expect(try await Self.play(try manager.videoObject(fromOfflineVideoToken: token)).status == 200)
        try manager.invalidateLicense(token)
        let invalid = #expect(throws: OfflineError.self) { try manager.videoObject(fromOfflineVideoToken: token) }
        #expect(invalid?.code == .invalidLicense)
        await manager.close()
        // A closed manager answers nothing: its copies are not reachable until a manager opens the store again.
        do {
            _ = try await Self.play(video)
            Issue.record("a closed store answered")
        } catch {
            #expect(error.kind == .offlineContentMissing, "\(error)")
        }
    }
}
