import CoveCore
import CoveTesting
import Foundation
import Testing

/// `cove download`, `cove downloads` and `cove play --offline` against the sample catalog, as a user on a
/// fresh machine would run them after `cove serve`.
@Suite("cove CLI: downloads", .serialized)
struct OfflineCLITests {
    static func cove(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await CLITests.cove(arguments)
    }

    @Test func aCatalogVideoDownloadsListsAndPlaysOfflineWithTheServerGone() async throws {
        let server = try await CatalogCLITests.catalog()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("cove-cli-offline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let catalog = ["--account", server.accountID, "--policy-key", SampleCatalog.policyKey, "--base-url", server.baseURL.absoluteString, "--store", store]
        let estimate = try await Self.cove(["download", SampleCatalog.VideoID.ladder, "--estimate"] + catalog)
        #expect(estimate.status == 0 && estimate.output.contains("Estimated size:"), "\(estimate.errorOutput)")
        let download = try await Self.cove(["download", SampleCatalog.VideoID.ladder, "--bitrate", "1500000", "--captions", "fr"] + catalog)
        #expect(download.status == 0, "\(download.errorOutput)")
        let token = try #require(download.output.split(separator: "\n").first { $0.hasPrefix("Downloading ") }?.split(separator: " ")[1]).description
        #expect(download.output.contains("Downloaded \(token)") && download.output.contains("cove play --offline \(token)"), "\(download.output)")
        // The same video again: already there, nothing fetched.
        let again = try await Self.cove(["download", SampleCatalog.VideoID.ladder] + catalog)
        #expect(again.status == 0 && again.output.contains("Already downloaded: \(token)"), "\(again.output)")
        let list = try await Self.cove(["downloads", "--store", store, "--json"])
        #expect(list.status == 0, "\(list.errorOutput)")
        let entries = try #require(try JSONValue.parse(Array(list.output.utf8)).arrayValue)
        #expect(entries.count == 1)
        #expect(entries.first?["state"] == "completed" && entries.first?["video_id"] == .string(SampleCatalog.VideoID.ladder))
        #expect(entries.first?["name"] == "Adaptive HLS ladder")
        let table = try await Self.cove(["downloads", "--store", store])
        #expect(table.output.contains(token) && table.output.contains("completed") && table.output.contains("100%"), "\(table.output)")
        let verify = try await Self.cove(["downloads", "verify", token, "--store", store])
        #expect(verify.status == 0, "\(verify.errorOutput)")
        await server.stop()
        let play = try await Self.cove(["play", "--offline", token, "--store", store, "--fast", "--captions", "fr"])
        #expect(play.status == 0, "\(play.errorOutput)")
        #expect(play.output.contains("End") && play.output.contains("Réplique"), "\(play.output)")
        let delete = try await Self.cove(["downloads", "delete", token, "--store", store])
        #expect(delete.status == 0 && delete.output.contains("Deleted \(token)"))
        let unknown = try await Self.cove(["play", "--offline", token, "--store", store])
        #expect(unknown.status == 1 && unknown.errorOutput.contains("unknownToken"), "\(unknown.errorOutput)")
        let bad = try await Self.cove(["downloads", "delete", "../etc", "--store", store])
        #expect(bad.status != 0 && bad.errorOutput.contains("not a download token"), "\(bad.errorOutput)")
    }

    /// A catalog video that may not be downloaded, and a store folder that cannot exist: typed messages, exit 1.
    @Test func refusalsAreTypedMessages() async throws {
        let server = try await CatalogCLITests.catalog()
        defer { Task { await server.stop() } }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("cove-cli-offline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let catalog = ["--account", server.accountID, "--policy-key", SampleCatalog.policyKey, "--base-url", server.baseURL.absoluteString]
        let ssai = try await Self.cove(["download", SampleCatalog.VideoID.ssai, "--store", store] + catalog)
        #expect(ssai.status == 1 && ssai.errorOutput.contains("notDownloadable"), "\(ssai.errorOutput)")
        let nowhere = try await Self.cove(["download", SampleCatalog.VideoID.ladder, "--store", "/proc/cove-store"] + catalog)
        #expect(
            nowhere.status == 1 && nowhere.errorOutput.contains("storageFailed") && nowhere.errorOutput.contains("/proc/cove-store"), "\(nowhere.errorOutput)")
        // A store folder this user may not write to (root ignores permissions: the command runs as nobody then).
        let readOnly = FileManager.default.temporaryDirectory.appendingPathComponent("cove-cli-readonly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: readOnly) }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
        let arguments = ["download", SampleCatalog.VideoID.ladder, "--store", readOnly.path] + catalog
        let denied =
            geteuid() == 0
            ? try await ProcessRunner.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", CLITests.binary.path] + arguments)
            : try await Self.cove(arguments)
        #expect(denied.status == 1 && denied.errorOutput.contains("storageFailed") && denied.errorOutput.contains("write to"), "\(denied.errorOutput)")
        let secretFree = ssai.errorOutput + ssai.output + nowhere.errorOutput + denied.errorOutput
        #expect(!secretFree.contains(SampleCatalog.policyKey))
    }
}
