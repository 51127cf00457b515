import Foundation

/// An SSAI title served by a `MediaServer`: the stitched `SSAIFixture` stream, its VMAP (built for
/// the server's own address, so every URL in it comes back here) and a beacon endpoint that logs
/// what a player reports. Routes, under the server's base URL:
///
/// - `ssai/content.vmap` — the VMAP (`application/xml`);
/// - `ssai/stream/master.m3u8`, `ssai/stream/index.m3u8`, `ssai/stream/segNNN.ts` — the stitched HLS;
/// - `ssai/companion.png`, `ssai/thumbnail.jpg`, `ssai/thumbnails.vtt` — companion and thumbnails;
/// - `ssai/captioned.vmap` — the same VMAP with closed-caption files on `SSAIVMAP.captionedAdIDs`, and
///   `ssai/captions/<adID>.en.vtt`, `ssai/captions/<adID>.fr.ttml`, `ssai/captions/content.en.vtt` — the
///   ads' captions and the content's (the ads' `.srt` files are not served);
/// - `beacons/<adID>/<event>[?query]` — answers 204 (or the status set by `beaconLog.failNext`) and
///   records a `BeaconHit`.
///
/// Routes are used rather than the server's file root so the title can sit next to any other
/// content (the catalog server's sample catalog, a test's own fixtures).
public struct SSAITitle: Sendable {
    public let server: MediaServer
    public let fixture: SSAIFixture
    public let beaconLog: BeaconLog

    public static let vmapPath = "ssai/content.vmap"
    /// The VMAP whose ads carry closed-caption files.
    public static let captionedVMAPPath = "ssai/captioned.vmap"
    public static let mediaPrefix = "ssai/"

    /// The VMAP's URL.
    public var vmapURL: URL { server.url(Self.vmapPath) }
    /// The captioned VMAP's URL.
    public var captionedVMAPURL: URL { server.url(Self.captionedVMAPPath) }
    /// The content's captions (a sidecar track for the video).
    public var contentCaptionsURL: URL { server.url(Self.mediaPrefix + "captions/content.en.vtt") }
    /// The stitched master playlist's URL (the VMAP's `contenturi`).
    public var streamURL: URL { server.url(Self.mediaPrefix + SSAIFixture.masterPath) }
    /// The VMAP as served.
    public var vmap: String { SSAIVMAP.document(base: server.baseURL, mediaPrefix: Self.mediaPrefix) }

    /// Generates (or reuses) the fixture and installs the routes on `server`.
    @discardableResult
    public static func install(on server: MediaServer) async throws -> SSAITitle {
        try install(on: server, fixture: try await SSAIFixture.prepare())
    }

    /// Installs the routes for an already prepared `fixture` on `server`.
    @discardableResult
    public static func install(on server: MediaServer, fixture: SSAIFixture) throws -> SSAITitle {
        let title = SSAITitle(server: server, fixture: fixture, beaconLog: BeaconLog())
        let log = title.beaconLog
        server.addRoute(prefix: "/beacons/") { request in
            let parts = request.path.dropFirst("/beacons/".count).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                return MediaServerResponse(status: 404, contentType: "text/plain", body: Data("expected /beacons/<adID>/<event>".utf8))
            }
            let status = log.record(adID: String(parts[0]), event: String(parts[1]), query: request.query)
            return MediaServerResponse(status: status, contentType: "text/plain", body: Data())
        }
        // The server keeps its routes; holding it weakly here lets a stopped server go.
        server.addRoute(prefix: "/" + mediaPrefix) { [weak server] request in
            let relative = String(request.path.dropFirst(mediaPrefix.count + 1))
            switch relative {
            case "content.vmap", "captioned.vmap":
                guard let server else { return MediaServerResponse(status: 503, contentType: "text/plain", body: Data()) }
                let vmap = SSAIVMAP.document(base: server.baseURL, mediaPrefix: mediaPrefix, adCaptions: relative == "captioned.vmap")
                return MediaServerResponse(status: 200, contentType: "application/xml", body: Data(vmap.utf8))
            case "captions/content.en.vtt":
                return MediaServerResponse(status: 200, contentType: "text/vtt", body: Data(SSAIVMAP.contentCaptionTrack().utf8))
            case let path where path.hasPrefix("captions/"):
                return Self.adCaptions(String(path.dropFirst("captions/".count)))
            case "thumbnails.vtt":
                return MediaServerResponse(status: 200, contentType: "text/vtt", body: Data(SSAIVMAP.thumbnailTrack().utf8))
            default:
                return Self.file(relative, in: fixture.root)
            }
        }
        return title
    }

    /// `<adID>.en.vtt` or `<adID>.fr.ttml` of a captioned ad; anything else answers 404.
    private static func adCaptions(_ name: String) -> MediaServerResponse {
        for id in SSAIVMAP.captionedAdIDs {
            if name == "\(id).en.vtt" { return MediaServerResponse(status: 200, contentType: "text/vtt", body: Data(SSAIVMAP.adCaptionTrack(adID: id).utf8)) }
            if name == "\(id).fr.ttml" {
                return MediaServerResponse(status: 200, contentType: "application/ttml+xml", body: Data(SSAIVMAP.adCaptionTTML(adID: id).utf8))
            }
        }
        return MediaServerResponse(status: 404, contentType: "text/plain", body: Data())
    }

    /// A file of the fixture; anything that is not a plain name inside it answers 404.
    private static func file(_ relative: String, in root: URL) -> MediaServerResponse {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }),
            let data = try? Data(contentsOf: root.appendingPathComponent(relative))
        else { return MediaServerResponse(status: 404, contentType: "text/plain", body: Data()) }
        let ext = (relative as NSString).pathExtension
        return MediaServerResponse(status: 200, contentType: MediaServer.contentType(for: ext), body: data)
    }
}
