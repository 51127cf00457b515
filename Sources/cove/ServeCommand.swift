import ArgumentParser
import CoveCore
import CovePlayerControls
import CoveServer
import Foundation

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a catalog folder through a local Playback-API-compatible server (a generated sample catalog by default).",
        discussion: "The catalog folder format is described in the README (catalog.json, videos/, playlists/, media/)."
    )

    @Option(help: "Catalog folder (default: the generated sample catalog).")
    var catalog: String?

    @Option(help: "Port (0 picks a free one).")
    var port = 0

    func run() async throws {
        let folder: URL
        if let catalog {
            folder = URL(fileURLWithPath: catalog)
        } else {
            Terminal.line("Preparing the sample catalog (media generated with ffmpeg on first run)…")
            folder = try await SampleCatalog.prepare()
        }
        let server: CatalogServer
        do {
            server = try await CatalogServer.start(catalog: folder, port: port)
        } catch let error as FixtureError {
            throw ValidationError(error.description)
        }
        if catalog == nil {
            // The sample's SSAI video names a VMAP that this title serves (with its stitched stream and beacons).
            let ssai = try await SSAITitle.install(on: server.media)
            Terminal.line(
                "SSAI video \(SampleCatalog.VideoID.ssai): VMAP at \(ssai.vmapURL.absoluteString) (fetch with --param ad_config_id=any), beacons logged under /beacons/"
            )
        }
        Terminal.line("Playback API for account \(server.accountID) at \(server.baseURL.absoluteString)")
        // Stand-ins answer through the catalog server's routes for as long as they live: until Ctrl-C.
        var standIns: [AnyObject] = []
        if let key = server.policyKey, catalog == nil { Terminal.line("Sample policy key: \(key)") }
        if catalog == nil {
            Terminal.line("Playback Rights: tokens are checked like the rights service does (HS256 signature with the sample secret, exp, nbf, accid, conid).")
            Terminal.line("  A sample token: pass --auth-token or set COVE_AUTH_TOKEN to \(SampleCatalog.authToken)")
            Terminal.line("  Sign your own claims with PlaybackRightsSigner(secret: SampleCatalog.rightsSecret) from CoveTesting.")
            // Stream concurrency beside the catalog, with the documented one-minute heartbeat.
            let concurrency = ConcurrencyServer(on: server.media, interval: .seconds(60), secret: SampleCatalog.rightsSecret)
            standIns.append(concurrency)
            let license = SampleCatalog.installLicenseServer(on: server.media)
            standIns.append(license)
            Terminal.line(
                "ClearKey video \(SampleCatalog.VideoID.clearKey): DASH cenc, licences from \(server.media.url(String(SampleCatalog.licensePath.dropFirst())).absoluteString)"
            )
            let collector = AnalyticsCollector(on: server.media)
            standIns.append(collector)
            Terminal.line(
                "Analytics collector: play with --analytics \(collector.destination.absoluteString); watch it with cove analytics tail \(server.media.baseURL.absoluteString)"
            )
            Terminal.line(
                "Stream concurrency (tokens with uid and climit): StreamConcurrencyService(accountID: \(server.accountID), baseURL: \(concurrency.baseURL.absoluteString))"
            )
        }
        Terminal.line(
            "Try: cove fetch playlist --account \(server.accountID) --policy-key <key> --base-url \(server.baseURL.absoluteString) \(catalog == nil ? SampleCatalog.playlistID : "<id>")"
        )
        Terminal.line("Ctrl-C to stop.")
        await Interrupt.wait()
        withExtendedLifetime(standIns) {}
        await server.stop()
    }
}
