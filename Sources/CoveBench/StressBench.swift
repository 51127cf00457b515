import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveTesting
import Foundation

/// Issue 14's reliability stress: many short sessions in one process on Cove's streaming — seeks in the
/// first second, audio rendition switches, teardown mid-download, servers answering 404, 503 and cut
/// responses — then whether memory, threads and file descriptors came back: the process after the last
/// session against the process after the 50th.
enum StressBench {
    /// What the process holds (Linux /proc).
    struct Footprint: CustomStringConvertible {
        let residentKB: Int
        let threads: Int
        let fileDescriptors: Int
        /// The threads' names (`/proc/self/task/*/comm`), to name one that was left behind.
        let threadNames: [String]
        /// What each descriptor is (`/proc/self/fd/*` link targets: `socket:[inode]`, `pipe:[inode]`,
        /// `anon_inode:[eventfd]`, a path), to name one that was left behind.
        let descriptorKinds: [String]

        static func now() -> Footprint {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            let rss =
                status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
                .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? -1
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            let names = tasks.map { task in
                ((try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines)
            }.sorted()
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            let kinds = descriptors.map { fd in
                // Inode numbers differ between snapshots; the kind is what can be compared.
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? "?"
                return target.hasPrefix("socket:") ? "socket" : target.hasPrefix("pipe:") ? "pipe" : target
            }.sorted()
            return Footprint(
                residentKB: rss, threads: tasks.isEmpty ? -1 : tasks.count, fileDescriptors: descriptors.isEmpty ? -1 : descriptors.count,
                threadNames: names, descriptorKinds: kinds)
        }

        var description: String { String(format: "RSS %.1f MB, %d threads, %d fds", Double(residentKB) / 1024, threads, fileDescriptors) }

        /// The footprint once the process is quiet: pipelines tear down on their own threads, and idle
        /// worker threads (dispatch, GStreamer's task pool) exit a few seconds after their last job. Polled
        /// every 500 ms until threads and descriptors held still and RSS moved less than 256 kB for 2 s
        /// (at most 20 s), so both measuring points are taken in the same state.
        static func settled() async throws -> Footprint {
            var last = now()
            var quiet = 0
            for _ in 0..<40 {
                try await Task.sleep(for: .milliseconds(500))
                let current = now()
                let still =
                    current.threads == last.threads && current.fileDescriptors == last.fileDescriptors && abs(current.residentKB - last.residentKB) < 256
                quiet = still ? quiet + 1 : 0
                last = current
                if quiet >= 4 { break }
            }
            return last
        }
    }

    struct Report {
        var sessions = 0
        var ended = 0
        var failed = 0
        /// Failed although the server served it without a fault: a bug.
        var failedUnprovoked = 0
        var tornDown = 0
        var afterFiftieth: Footprint?
        var afterLast: Footprint?
    }

    static func run(sessions: Int, seed: UInt64, say: (String) -> Void) async throws -> Report {
        let fixtures = try await FixtureMedia.prepare()
        let server = try await MediaServer.start(root: fixtures.root)
        defer { Task { await server.stop() } }
        // Its own transport, whose kept-alive connections close 1 s after their last request: the settled
        // footprints then hold no pooled connection, and any socket left is one a session left behind.
        let transport = AsyncHTTPClientTransport(idleConnectionTimeout: .seconds(1))
        var random = SeededRandom(seed: seed)
        var report = Report()
        let assets: [FixtureMedia.Asset] = [.ladder, .fmp4, .alternateAudio, .subtitles, .aes, .audioOnly]
        for index in 0..<sessions {
            let asset = assets[index % assets.count]
            // One in three sessions meets a misbehaving server.
            let fault = random.int(0...5)
            switch fault {
            case 0: server.forceStatus(404, forPathsContaining: "seg00\(random.int(1...4))", count: 1)
            case 1: server.forceStatus(503, forPathsContaining: "seg00\(random.int(0...4))", count: 2)
            case 2: server.cutResponses(forPathsContaining: "seg00\(random.int(0...4))", afterBytes: 5_000, count: 1)
            default: break
            }
            let realTime = random.chance(0.5)
            let configuration = PlaybackControllerConfiguration(
                pacing: realTime ? .realTime : .unsynchronized, retryPolicy: RetryPolicy(maximumAttempts: 1, initialDelay: .milliseconds(100)))
            let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(transport: transport), configuration: configuration)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: server.url(asset))])
            // Seek and switch within the first second, then tear down at a random moment (often mid-download).
            try await Task.sleep(for: .milliseconds(random.int(0...400)))
            if random.chance(0.6) { controller.seek(to: .seconds(Double(random.int(0...18)))) }
            if asset == .alternateAudio, let session = controller.currentSession, let track = session.audioTrackGroup.tracks.last {
                session.selectAudioTrack(track)
            }
            try await Task.sleep(for: .milliseconds(random.int(0...600)))
            controller.shutdown()
            await controller.settle()
            // Faults this session never reached must not fail the next one.
            server.clearFaults()
            let names = recorder.lifecycleNames
            if names.contains("End") {
                report.ended += 1
            } else if names.contains("Fail") || names.contains("FailedToPlayToEndTime") {
                // A session the server was not told to fail must not fail.
                if fault <= 2 { report.failed += 1 } else { report.failedUnprovoked += 1 }
            } else {
                report.tornDown += 1
            }
            report.sessions += 1
            if index + 1 == 50 || index + 1 == sessions {
                let footprint = try await Footprint.settled()
                if index + 1 == 50 { report.afterFiftieth = footprint } else { report.afterLast = footprint }
                say("after session \(index + 1): \(footprint)")
            } else if (index + 1) % 50 == 0 {
                say("session \(index + 1): \(Footprint.now())")
            }
        }
        await transport.shutdown()
        return report
    }
}
