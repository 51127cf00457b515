import CoveTesting
import Foundation
import Testing

/// The public API of every library product, checked against the baseline in `api/` so a change that
/// removes or changes a public declaration cannot land unnoticed. The dump comes from the toolchain's
/// `swift-api-digester` over the modules this build made; each line is one public declaration (kind,
/// path, a stored property's type). Accept an intended change with `make api-baseline`.
@Suite("Public API", .serialized)
struct PublicAPITests {
    static let modules = [
        "CoveCore", "CoveGStreamer", "CoveGStreamerEngine", "CoveHLS", "CoveStreaming", "CoveText", "CoveSSAI", "CoveXML", "CoveDASH", "CoveNetworking",
        "CovePlaybackService", "CoveTestSupport", "CoveTestServers", "CoveServer", "CovePlayerUI", "CovePlayerControls", "CovePlayerView",
        "CoveMPRIS", "CoveOffline", "CoveAnalytics", "CoveMonitoring", "CoveReport",
    ]

    static var repository: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
    static var buildFolder: URL { CLITests.binary.deletingLastPathComponent() }

    @Test(arguments: modules)
    func thePublicAPIMatchesTheBaseline(_ module: String) async throws {
        let current = try await Self.dump(module)
        #expect(current.count > 3, "\(module): the dump is nearly empty: \(current)")
        let baselineFile = Self.repository.appendingPathComponent("api/\(module).txt")
        if ProcessInfo.processInfo.environment["COVE_API_BASELINE_WRITE"] == "1" {
            try FileManager.default.createDirectory(at: baselineFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try (current.joined(separator: "\n") + "\n").write(to: baselineFile, atomically: true, encoding: .utf8)
            return
        }
        let baseline = try #require(try? String(contentsOf: baselineFile, encoding: .utf8), "no baseline at api/\(module).txt: run `make api-baseline`")
            .split(separator: "\n").map(String.init)
        let removed = Set(baseline).subtracting(current).sorted()
        let added = Set(current).subtracting(baseline).sorted()
        #expect(
            removed.isEmpty,
            "\(module): public API removed or changed (a break for apps; if intended, run `make api-baseline` and say so in the commit):\n\(removed.joined(separator: "\n"))"
        )
        #expect(added.isEmpty, "\(module): public API added; record it with `make api-baseline`:\n\(added.joined(separator: "\n"))")
    }

    /// The comparison itself: a baseline line missing from the dump is reported (what the check above
    /// does when a public symbol is removed).
    @Test func aRemovedDeclarationIsReported() async throws {
        let current = try await Self.dump("CoveReport")
        let baseline = current + ["Func QoEReport.removedForTheTest()"]
        #expect(Set(baseline).subtracting(current) == ["Func QoEReport.removedForTheTest()"])
        #expect(current.contains { $0.hasPrefix("Struct QoEReport") }, "\(current.prefix(5))")
    }

    // MARK: The dump

    /// One line per public declaration of `module`, sorted.
    static func dump(_ module: String) async throws -> [String] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("cove-api-\(module)-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try await ProcessRunner.run(digester, ["-dump-sdk", "-module", module, "-o", output.path] + (await searchArguments()))
        guard run.status == 0 else {
            throw APIDumpError(description: "swift-api-digester failed for \(module) (\(run.status)): \(run.errorOutput.suffix(800))")
        }
        // Reading and walking a few megabytes of JSON is blocking work: off the test pool's two threads.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try lines(ofDump: output, module: module) })
            }
        }
    }

    private static func lines(ofDump file: URL, module: String) throws -> [String] {
        let data = try Data(contentsOf: file)
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any], let root = json["ABIRoot"] as? [String: Any] else {
            throw APIDumpError(description: "swift-api-digester's dump for \(module) has no ABIRoot")
        }
        var lines: Set<String> = []
        collect(root, path: [], into: &lines)
        return lines.sorted()
    }

    private static let declarationKinds: Set<String> = ["TypeDecl", "Var", "Constructor", "Function", "TypeAlias", "Subscript"]

    private static func collect(_ node: [String: Any], path: [String], into lines: inout Set<String>) {
        let children = node["children"] as? [[String: Any]] ?? []
        guard let kind = node["kind"] as? String else { return }
        if kind == "Root" {
            for child in children { collect(child, path: path, into: &lines) }
            return
        }
        guard declarationKinds.contains(kind), let declKind = node["declKind"] as? String else { return }
        // `package` declarations (the digester marks them internal) are for the package's own targets, not apps.
        if (node["isInternal"] as? Bool) == true { return }
        let named = ["Constructor", "Function", "Subscript"].contains(kind) ? node["printedName"] : node["name"]
        let name = named as? String ?? "?"
        let inner = path + [name]
        var line = ((node["static"] as? Bool) == true ? "static " : "") + declKind + " " + inner.joined(separator: ".")
        if kind == "Var", let type = children.first?["printedName"] as? String { line += ": " + type }
        if kind == "Function" || kind == "Constructor" || kind == "Subscript" {
            let types = children.compactMap { $0["printedName"] as? String }
            if let result = types.first { line += " (" + types.dropFirst().joined(separator: ", ") + ") -> " + result }
        }
        lines.insert(line)
        for child in children { collect(child, path: inner, into: &lines) }
    }

    /// The digester beside the compiler that built the tests.
    static var digester: String {
        let candidates = [
            ProcessInfo.processInfo.environment["SWIFT_API_DIGESTER"],
            "/opt/swift/usr/bin/swift-api-digester", "/usr/bin/swift-api-digester",
        ].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "swift-api-digester"
    }

    /// Where the modules and the C modules they import are: the build's modules, the module maps of the
    /// build's and the packages' C targets, and GStreamer's headers.
    static func searchArguments() async -> [String] {
        var arguments = ["-I", buildFolder.appendingPathComponent("Modules").path]
        let maps = await withCheckedContinuation { continuation in DispatchQueue.global().async { continuation.resume(returning: moduleMaps) } }
        for map in maps { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
        for target in ["CCoveGst", "CCoveWindow", "CCoveMPRIS"] {
            arguments += ["-Xcc", "-I\(repository.appendingPathComponent("Sources/\(target)/include").path)"]
        }
        for flag in await gstreamerFlags() { arguments += ["-Xcc", flag] }
        return arguments
    }

    /// Found once, by listing the few places a target's module map can be (not by walking the checkouts'
    /// twelve thousand files, which held the test pool's threads for seconds at a time).
    static let moduleMaps: [URL] = {
        let fm = FileManager.default
        func children(_ folder: URL) -> [URL] { (try? fm.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [] }
        var candidates = children(buildFolder).map { $0.appendingPathComponent("module.modulemap") }
        var targetFolders = children(repository.appendingPathComponent("Sources"))
        for checkout in children(repository.appendingPathComponent(".build/checkouts")) {
            targetFolders += children(checkout.appendingPathComponent("Sources"))
        }
        for folder in targetFolders {
            candidates += [folder.appendingPathComponent("module.modulemap"), folder.appendingPathComponent("include/module.modulemap")]
        }
        return candidates.filter { fm.fileExists(atPath: $0.path) }
    }()

    /// The system libraries' include flags (what CGStreamer, CPangoCairo and CGIO get from pkg-config).
    static func gstreamerFlags() async -> [String] {
        guard
            let run = try? await ProcessRunner.run(
                "pkg-config", ["--cflags", "gstreamer-1.0", "gstreamer-app-1.0", "gstreamer-video-1.0", "pangocairo", "gio-2.0"]), run.status == 0
        else { return [] }
        return run.output.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}

struct APIDumpError: Error, CustomStringConvertible {
    let description: String
}
