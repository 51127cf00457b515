import CoveCore
import CoveNetworking
import CoveOffline
import CoveTesting
import Foundation
import Testing

/// The crash-safety promise, tried for real: `cove download` (a child process) is killed with SIGKILL at
/// 50 random byte positions across the download; each next run resumes it, and the finished copy is the
/// origin's bytes, fetched at most 1.1 times over.
@Suite("Offline downloads killed at random", .serialized)
struct OfflineKillTests {
    /// Files fetched beyond their size, the most first: "path: fetched/size over N requests (statuses)".
    static func overfetched(_ requests: [MediaRequest], root: URL) -> [String] {
        Dictionary(grouping: requests, by: \.path).compactMap { path, requests -> (Int, String)? in
            let size = (try? FileManager.default.attributesOfItem(atPath: root.path + path)[.size] as? Int) ?? 0
            let sent = requests.reduce(0) { $0 + $1.bytesSent }
            guard sent > size else { return nil }
            let detail = requests.map { "\($0.status)\($0.range.map { " " + $0 } ?? "")" }.joined(separator: ", ")
            return (sent - size, "\(path): \(sent)/\(size) over \(requests.count) requests (\(detail))")
        }.sorted { $0.0 > $1.0 }.map(\.1)
    }

    /// The `cove` binary built next to the test bundle.
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cove")
    }

    @Test func aDownloadKilledFiftyTimesResumesEachTimeAndEndsWithTheOriginsBytes() async throws {
        // 90 s of media (~32 MB): a kill loses what was in flight on each connection (about one 16 kB
        // chunk), so the bound is about resuming parts instead of fetching files again, on a title of
        // realistic length (a 20 s title would spend its 10 % on in-flight chunks alone).
        let h = try await OfflineHarness.start(duration: 90)
        defer { Task { await h.stop() } }
        // A 40 Mbit/s link: what a download meets on a network (on unthrottled loopback the server would
        // have megabytes in socket buffers at each kill, bytes no client ever received).
        h.server.setBandwidth(bitsPerSecond: 40_000_000)
        let url = h.server.url(OfflineFixture.Path.master).absoluteString
        let arguments = ["download", url, "--store", h.root.path, "--audio", "en", "fr"]
        // What the download stores: the top variant, both audio renditions and the subtitle rendition.
        var total = 0
        for folder in ["package/v720", "package/English", "package/French", "package/subs"] {
            for file in try h.fixture.files(under: folder) where file.pathExtension != "m3u8" {
                total += try Data(contentsOf: file).count
            }
        }
        // COVE_KILL_SEED=S repeats a run's kill points (the seed is printed at the end and in every failure).
        var generator = SeededRandom(seed: UInt64(Date().timeIntervalSince1970))
        let seed = ProcessInfo.processInfo.environment["COVE_KILL_SEED"].flatMap { UInt64($0) } ?? generator.next()
        var random = SeededRandom(seed: seed)
        let points = (0..<50).map { _ in Int(Double(random.next() % 10_000) / 10_000 * Double(total) * 0.97) }.sorted()
        var tokens: [String] = []
        var kills = 0
        for point in points {
            let child = try ProcessRunner.start(Self.binary.path, arguments)
            let killed = await Self.kill(child, whenServerHasSent: point, of: h.server)
            tokens.append(contentsOf: Self.tokens(in: await Self.drain(child)))
            // Not killed: the download completed before this point (the later points are past its end too).
            guard killed else { break }
            kills += 1
        }
        let last = try await ProcessRunner.run(Self.binary.path, arguments)
        #expect(last.status == 0, "seed \(seed): \(last.errorOutput)")
        #expect(kills >= 45, "seed \(seed): \(kills) kills")
        // One download throughout: every run after the first one that recorded it resumed it.
        let manager = try h.manager()
        let statuses = try manager.offlineVideoStatus()
        #expect(statuses.count == 1, "seed \(seed): \(statuses)")
        let status = try #require(statuses.first)
        #expect(status.state == .completed)
        #expect(last.output.contains("Resuming download \(status.token)"), "\(last.output)")
        #expect(Set(tokens).count <= 1, "seed \(seed): every killed run worked on the same download: \(Set(tokens))")
        let files = try manager.storedFiles(of: status.token)
        #expect(try h.mismatches(files).isEmpty, "seed \(seed)")
        let stored = files.compactMap(\.length).reduce(0, +)
        #expect(Int(stored) == total)
        let fetched = h.server.totalBytesSent
        let ratio = String(format: "%.3f", Double(fetched) / Double(stored))
        let overfetched = Self.overfetched(h.server.requests, root: h.fixture.root).prefix(8)
        #expect(
            Double(fetched) <= 1.1 * Double(stored),
            "seed \(seed): fetched \(fetched) bytes for \(stored) stored (\(ratio)×); fetched most beyond their size: \(overfetched)")
        #expect(try manager.verify(status.token).isEmpty)
        await manager.close()
        print(
            "kill test: seed \(seed), \(kills) kills, fetched \(fetched) bytes for \(stored) stored = \(String(format: "%.3f", Double(fetched) / Double(stored)))×"
        )
    }

    /// SIGKILLs the child once the server has sent `bytes` in all; false when it exited on its own first.
    /// Returns after the child has exited either way.
    static func kill(_ child: ProcessRunner.Running, whenServerHasSent bytes: Int, of server: MediaServer) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await server.waitUntilBytesSent(atLeast: bytes)
                if Task.isCancelled { return false }
                child.kill()
                return true
            }
            let status = await child.status()
            group.cancelAll()
            let fired = await group.next() ?? false
            return fired && status != 0
        }
    }

    static func drain(_ child: ProcessRunner.Running) async -> [String] {
        var lines: [String] = []
        for await line in child.lines { lines.append(line) }
        return lines
    }

    static func tokens(in lines: [String]) -> [String] {
        lines.compactMap { line in
            for prefix in ["Downloading ", "Resuming download "] where line.hasPrefix(prefix) {
                return line.dropFirst(prefix.count).split(separator: " ").first.map(String.init)
            }
            return nil
        }
    }
}
