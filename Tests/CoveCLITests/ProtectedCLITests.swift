import CoveCore
import CoveTesting
import Foundation
import Testing

/// `cove play` and `cove probe` with protected content: keys on the command line (`--clearkey`, as
/// Shaka's clearKeys) or a ClearKey licence server (`--license-url`).
@Suite("cove CLI: protected content", .serialized)
struct ProtectedCLITests {
    static var pair: String { ProtectedFixture.clearKeyPairs[0] }

    @Test func playsWithKeysOnTheCommandLineOrALicenceServerAndFailsTypedWithout() async throws {
        let fixture = try await ProtectedFixture.prepare()
        let server = try await MediaServer.start(root: fixture.root)
        defer { Task { await server.stop() } }
        let license = SampleCatalog.installLicenseServer(on: server)
        let cbcs = server.url(ProtectedFixture.Asset.dashCBCS.rawValue).absoluteString
        let withKeys = try await CLITests.cove(["play", cbcs, "--fast", "--headless", "--clearkey", Self.pair])
        #expect(withKeys.status == 0, "\(withKeys.errorOutput)")
        #expect(withKeys.output.contains("End"), "\(withKeys.output)")
        #expect(license.requests.isEmpty, "keys given on the command line need no licence")

        let probe = try await CLITests.cove([
            "probe", server.url(ProtectedFixture.Asset.dashRotation.rawValue).absoluteString, "--json", "--fast", "--license-url",
            server.url(String(SampleCatalog.licensePath.dropFirst())).absoluteString,
        ])
        #expect(probe.status == 0, "\(probe.errorOutput)")
        let json = try JSONValue.parse(Array(probe.output.utf8))
        #expect(json["outcome"] == "ended", "\(probe.output.prefix(400))")
        #expect(license.requests.count == 1)

        let without = try await CLITests.cove(["play", cbcs, "--fast", "--headless"])
        #expect(without.output.contains("Fail") && without.output.contains("licence URL"), "\(without.output)")
    }

    @Test func aMalformedKeyIsAUsageErrorThatNeverEchoesTheKey() async throws {
        let key = "3c4a1f0e9b2d7a6c5e8f01d2c3b4a5"
        let run = try await CLITests.cove(["play", "http://127.0.0.1:9/x.mpd", "--clearkey", "00112233445566778899aabbccddeeff:\(key)"])
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("--clearkey") && run.errorOutput.contains("32 hex digits"), "\(run.errorOutput)")
        #expect(!(run.output + run.errorOutput).contains(key))
        let noURL = try await CLITests.cove(["play", "http://127.0.0.1:9/x.mpd", "--license-url", "ftp://x/license"])
        #expect(noURL.status != 0 && noURL.errorOutput.contains("--license-url"), "\(noURL.errorOutput)")
    }
}
