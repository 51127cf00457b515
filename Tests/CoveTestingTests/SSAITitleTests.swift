import CoveCore
import CoveSSAI
import CoveTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The served SSAI title: the stitched stream's shape, the VMAP read back through Cove's own
/// parser and timeline, and the beacon endpoint over real HTTP.
@Suite("SSAI title", .serialized)
struct SSAITitleTests {
    static func get(_ url: URL) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(for: URLRequest(url: url, timeoutInterval: 10))
        return ((response as! HTTPURLResponse).statusCode, data)
    }

    static func seconds(_ range: Range<AdTime>) -> Range<Double> { range.lowerBound.seconds..<range.upperBound.seconds }

    @Test func stitchedStreamHasEighteenTwoSecondSegments() async throws {
        let fixture = try await SSAIFixture.prepare()
        let playlist = try String(contentsOf: fixture.url(SSAIFixture.mediaPlaylistPath), encoding: .utf8)
        let durations = playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }
            .compactMap { Double($0.dropFirst("#EXTINF:".count).split(separator: ",")[0]) }
        #expect(durations.count == 18)
        #expect(durations.allSatisfy { abs($0 - 2) < 0.001 })
        #expect(abs(durations.reduce(0, +) - 36) < 0.01)
        #expect(playlist.contains("#EXT-X-ENDLIST"))
        let size = try FileManager.default.contentsOfDirectory(at: fixture.url("stream"), includingPropertiesForKeys: [.fileSizeKey])
            .reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
        #expect(size < 4_000_000)
        #expect(SSAIFixture.pieces.allSatisfy { $0.streamStart % SSAIFixture.segmentDuration == 0 && $0.duration % SSAIFixture.segmentDuration == 0 })
    }

    @Test func servedVMAPParsesToTheStitchedTimeline() async throws {
        let server = try await MediaServer.start(root: FileManager.default.temporaryDirectory)
        defer { Task { await server.stop() } }
        let title = try await SSAITitle.install(on: server)
        let (status, body) = try await Self.get(title.vmapURL)
        #expect(status == 200)
        let document = try VMAP.parse(String(decoding: body, as: UTF8.self))
        #expect(document.warnings.isEmpty, "\(document.warnings)")
        #expect(document.stream.flavour == .brightcove)
        #expect(document.stream.contentURL == title.streamURL.absoluteString)
        #expect(document.stream.contentLength?.seconds == 20)
        #expect(document.stream.payloadLength?.seconds == 36)
        #expect(document.stream.thumbnailsURL == server.url("ssai/thumbnails.vtt").absoluteString)

        let timeline = try AdTimeline.make(from: document)
        #expect(timeline.warnings.isEmpty, "\(timeline.warnings)")
        #expect(timeline.breaks.map(\.contentOffset.seconds) == [0, 10, 20])
        #expect(timeline.breaks.map { Self.seconds($0.streamRange) } == [0..<4, 14..<22, 32..<36])
        #expect(timeline.breaks.map(\.id) == SSAIVMAP.breakIDs)
        #expect(timeline.ads.map(\.id) == ["ad-pre", "ad-mid-1", "ad-mid-2", "ad-post"])
        #expect(
            timeline.ads.map { Self.seconds($0.streamRange) }
                == SSAIFixture.pieces.filter(\.isAd).map { Double($0.streamStart)..<Double($0.streamRange.upperBound) })
        #expect(timeline.streamDuration?.seconds == 36)

        let beacons = server.url("beacons/").absoluteString
        for ad in timeline.ads {
            #expect(ad.trackingEvents.map(\.event.rawValue) == SSAIVMAP.linearEvents)
            #expect(ad.trackingEvents.allSatisfy { $0.url == beacons + "\(ad.id!)/\($0.event.rawValue)" })
            #expect(ad.clickTracking.map(\.url) == [beacons + "\(ad.id!)/clickTracking"])
            #expect(ad.clickThrough != nil)
            #expect((ad.skipOffset != nil) == (ad.id == SSAIVMAP.skippableAdID))
        }
        #expect(timeline.ads[0].impressions.map(\.url) == [beacons + "ad-pre/impression?cb=[CACHEBUSTING]"])
        let companion = try #require(timeline.ads[1].companions.first)
        #expect(companion.width == 300 && companion.height == 250)
        #expect(companion.trackingEvents.map(\.url) == [beacons + "ad-mid-1/companionCreativeView"])
        #expect(timeline.breaks[1].trackingEvents.map(\.url) == [beacons + "midroll-1/breakStart", beacons + "midroll-1/breakEnd"])

        // Every media URL the VMAP names is served.
        #expect(try await Self.get(title.streamURL).0 == 200)
        #expect(try await Self.get(server.url("ssai/stream/seg017.ts")).0 == 200)
        #expect(try await Self.get(URL(string: companion.staticResources[0].url)!).0 == 200)
        #expect(try await Self.get(server.url("ssai/thumbnails.vtt")).0 == 200)
        #expect(try await Self.get(server.url("ssai/.complete")).0 == 404)
        #expect(try await Self.get(server.url("ssai/stream/seg018.ts")).0 == 404)
    }

    @Test func beaconHitsAreLoggedAndAwaitable() async throws {
        let server = try await MediaServer.start(root: FileManager.default.temporaryDirectory)
        defer { Task { await server.stop() } }
        let title = try await SSAITitle.install(on: server)
        let waiting = Task { try await title.beaconLog.waitFor(2, event: "start", timeout: .seconds(10)) }
        #expect(try await Self.get(server.url("beacons/ad-pre/impression?cb=12345")).0 == 204)
        #expect(try await Self.get(server.url("beacons/ad-pre/start")).0 == 204)
        #expect(try await Self.get(server.url("beacons/ad-mid-1/start")).0 == 204)
        let starts = try await waiting.value
        #expect(starts.map(\.adID) == ["ad-pre", "ad-mid-1"])
        let log = title.beaconLog.hits
        #expect(log.map(\.event) == ["impression", "start", "start"])
        #expect(log[0].adID == "ad-pre" && log[0].query == "cb=12345" && log[0].status == 204)
        #expect(try await Self.get(server.url("beacons/malformed")).0 == 404)
        #expect(title.beaconLog.hits.count == 3)
        await #expect(throws: BeaconWaitError.self) { try await title.beaconLog.waitFor(event: "complete", timeout: .milliseconds(50)) }
    }

    @Test func beaconFailuresAnswerTheForcedStatusForTheNextHits() async throws {
        let server = try await MediaServer.start(root: FileManager.default.temporaryDirectory)
        defer { Task { await server.stop() } }
        let title = try await SSAITitle.install(on: server)
        title.beaconLog.failNext(2)
        let url = server.url("beacons/ad-post/complete")
        #expect(try await Self.get(url).0 == 500)
        #expect(try await Self.get(url).0 == 500)
        #expect(try await Self.get(url).0 == 204)
        #expect(title.beaconLog.hits.map(\.status) == [500, 500, 204])
        title.beaconLog.failNext(1, status: 503)
        #expect(try await Self.get(url).0 == 503)
        try await title.beaconLog.waitFor(4, event: "complete", adID: "ad-post")
    }

    @Test func sampleCatalogOffersTheSSAIVideoWithItsVMAPOnlyForAnAdConfig() async throws {
        let server = try await CatalogServer.start(catalog: try await SampleCatalog.prepare())
        defer { Task { await server.stop() } }
        let title = try await SSAITitle.install(on: server.media)
        let videoURL = server.baseURL.appendingPathComponent("accounts/\(SampleCatalog.accountID)/videos/\(SampleCatalog.VideoID.ssai)")
        func source(_ query: String) async throws -> JSONObject {
            var request = URLRequest(url: URL(string: videoURL.absoluteString + query)!, timeoutInterval: 10)
            request.setValue(SampleCatalog.policyKey, forHTTPHeaderField: "BCOV-Policy")
            let (data, _) = try await URLSession.shared.data(for: request)
            return try #require(JSONValue.parse(data).objectValue?["sources"]?.arrayValue?.first?.objectValue)
        }
        #expect(try await source("")["vmap"] == nil)
        let vmapURL = try #require(try await source("?ad_config_id=cfg")["vmap"]?.stringValue)
        #expect(vmapURL == title.vmapURL.absoluteString + "?ad_config_id=cfg")
        let (status, body) = try await Self.get(URL(string: vmapURL)!)
        #expect(status == 200)
        let timeline = try AdTimeline.make(from: VMAP.parse(String(decoding: body, as: UTF8.self)))
        #expect(timeline.breaks.count == 3 && timeline.streamDuration?.seconds == 36)
    }
}
