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
        let token = try await manager.requestVideoDownload(
            h.video, parameters: OfflineDownloadParameters(requestedBitrate: 500_000, captionLanguages: [], includesImages: false, license: terms))
        #expect(try #require(await manager.waitUntilSettled(token)).state == .completed)
        // Not played yet: only the rental bounds it, however long it waits within it.
        clock.advance(7_200)
        let video = try manager.videoObject(fromOfflineVideoToken: token)
        let expiry = try #require(try manager.status(of: token).licenseExpiration)
        #expect(abs(expiry.timeIntervalSince(clock.now()) - (86_400 - 7_200)) < 5, "the rental's end")
        #expect(try await Self.play(video).status == 200)
        // Played: an hour from the first play.
        let afterPlay = try #require(try manager.status(of: token).licenseExpiration)
        #expect(abs(afterPlay.timeIntervalSince(clock.now()) - 3_600) < 5, "the play duration from the first play")
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
