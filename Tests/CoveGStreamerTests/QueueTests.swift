import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Synchronization
import Testing

/// Queue behaviour, consumers and outputs on the real engine.
extension RealEngineTests {
    @Suite("GStreamer queue and outputs")
    struct QueueTests {
        @Test func autoAdvancePlaysThePlaylistAndConsumersFollow() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            let consumer = SessionLog()
            controller.addSessionConsumer(consumer)
            controller.isAutoPlay = true
            controller.isAutoAdvance = true
            controller.setVideos([h.video(.audioOnly, ["id": "one"]), h.video(.mp4, ["id": "two"])])
            try await recorder.waitFor { if case .playlistCompleted = $0 { true } else { false } }
            await controller.settle()
            let advanced = recorder.events.compactMap { if case .sessionAdvanced(let s) = $0 { s } else { nil } }
            #expect(advanced.map(\.video.id) == ["one", "two"])
            #expect(advanced[0].isTerminated)
            #expect(consumer.advancedTo == advanced.map(\.id))
            #expect(recorder.lifecycleNames.filter { $0 == "End" }.count == 2)
            let firstTerminate = recorder.names.firstIndex(of: "Terminate")!
            #expect(recorder.names[firstTerminate + 1] == "SessionAdvanced")
        }

        @Test func setVideosMidPlaybackReplacesTheSessionAndInsertionsQueueUp() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder, ["id": "first"])])
            try await recorder.waitFor(lifecycle: "Play")
            let first = try #require(controller.currentSession)
            controller.insertVideo(h.video(.audioOnly, ["id": "inserted"]), afterVideoAt: 0)
            try await recorder.waitFor { if case .videoInserted(_, 1) = $0 { true } else { false } }
            controller.advanceToNext()
            try await recorder.waitFor(lifecycle: "Play", from: recorder.count)
            #expect(controller.currentSession?.video.id == "inserted")
            #expect(first.isTerminated)
            controller.setVideos([h.video(.mp4, ["id": "replacement"])])
            try await recorder.waitFor(lifecycle: "Play", from: recorder.count)
            #expect(controller.currentSession?.video.id == "replacement")
            #expect(recorder.lifecycleNames.filter { $0 == "Terminate" }.count == 2)
            controller.shutdown()
        }

        @Test(.enabled(if: XServer.isAvailable, "Xvfb is not installed"))
        func windowOutputRendersIntoAnXWindow() async throws {
            let x = try XServer.start()
            defer { x.stop() }
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller(fast: false, output: .x11(display: x.display))
            let recorder = EventRecorder(controller)
            controller.setPreferredPeakBitRate(600_000)
            controller.isAutoPlay = true
            controller.setVideos([h.video(.ladder)])
            try await recorder.waitFor { $0.name == "FirstFrame" }
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t > .seconds(1) } else { false } }
            let windows = try x.run("xwininfo", "-root", "-tree")
            #expect(windows.contains("\"GStreamer\")") && windows.contains("x240+"), "\(windows)")
            let shot = FileManager.default.temporaryDirectory.appendingPathComponent("cove-x-\(UUID().uuidString).png")
            defer { try? FileManager.default.removeItem(at: shot) }
            _ = try x.run("import", "-window", "root", shot.path)
            #expect(try ImageProbe.meanBrightness(ofFile: shot.path) > 0.02)
            controller.shutdown()
        }
    }
}

final class SessionLog: PlaybackSessionConsumer {
    private let ids = Mutex<[Int]>([])
    var advancedTo: [Int] { ids.withLock { $0 } }
    func didAdvance(to session: PlaybackSession) { ids.withLock { $0.append(session.id) } }
}

/// A private Xvfb display for window tests. Spawned with posix_spawn and reaped with waitpid, so the
/// test owns the child's whole lifetime.
struct XServer {
    let display: String
    let pid: pid_t

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") }

    static func start() throws -> XServer {
        let number = Int.random(in: 50...250)
        let arguments = ["/usr/bin/Xvfb", ":\(number)", "-screen", "0", "1280x720x24", "-nolisten", "tcp"]
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else {
            throw RecorderError(description: "could not start Xvfb")
        }
        let server = XServer(display: ":\(number)", pid: pid)
        // Xvfb takes a moment to open its socket; wait until the display answers.
        for _ in 0..<100 {
            if (try? server.run("xdpyinfo")) != nil { return server }
            usleep(50_000)
        }
        server.stop()
        throw RecorderError(description: "Xvfb did not start on :\(number)")
    }

    @discardableResult
    func run(_ arguments: String...) throws -> String {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        child.arguments = arguments
        child.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { _, new in new }
        let out = Pipe()
        child.standardOutput = out
        child.standardError = FileHandle.nullDevice
        try child.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else { throw RecorderError(description: "\(arguments.joined(separator: " ")) failed") }
        return String(decoding: data, as: UTF8.self)
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
    }
}
