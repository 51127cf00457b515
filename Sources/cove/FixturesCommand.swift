import ArgumentParser
import CoveCore
import CovePlayerControls
import CoveServer
import Foundation

struct FixturesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "Generate the test-kit media (cached) and print where it is."
    )

    @Option(help: "Clip length in seconds.")
    var duration = 20

    func run() async throws {
        let fixtures = try await FixtureMedia.prepare(.init(duration: duration))
        Terminal.line(fixtures.root.path)
        for asset in FixtureMedia.Asset.allCases { Terminal.line("  \(asset.rawValue)") }
    }
}

struct ServeMediaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-media",
        abstract: "Serve a folder (default: the generated fixtures) on loopback with the test kit's media server."
    )

    @Option(help: "Folder to serve.")
    var root: String?

    @Option(help: "Port (0 picks a free one).")
    var port = 0

    @Option(help: "Bandwidth cap in bits per second.")
    var bandwidth: Int?

    func run() async throws {
        let folder: URL
        if let root { folder = URL(fileURLWithPath: root) } else { folder = try await FixtureMedia.prepare().root }
        let server = try await MediaServer.start(root: folder, port: port)
        if let bandwidth { server.setBandwidth(bitsPerSecond: bandwidth) }
        Terminal.line("Serving \(folder.path) at \(server.baseURL.absoluteString) — Ctrl-C to stop")
        await Interrupt.wait()
        await server.stop()
    }
}
