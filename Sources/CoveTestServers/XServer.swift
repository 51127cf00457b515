import CoveServer
import CoveTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A private Xvfb display for window tests. Spawned with posix_spawn and reaped with waitpid, so the
/// test owns the child's whole lifetime.
public struct XServer: Sendable {
    public let display: String
    let pid: pid_t

    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") }

    /// Starts Xvfb on a display it picks itself (a `width`×`height` screen), and checks that the display answers.
    /// A launch that fails (Xvfb exits before reporting a display: another server took the number it
    /// chose between its check and its bind, as consecutive test processes can) is tried again; the
    /// error after the last attempt carries what Xvfb said.
    public static func start(width: Int = 1280, height: Int = 720) async throws -> XServer {
        var failures: [String] = []
        for _ in 0..<3 {
            let server: XServer
            do {
                server = try await launch(screen: "\(width)x\(height)x24")
            } catch {
                failures.append("\(error)")
                continue
            }
            if (try? await server.run("xdpyinfo")) != nil { return server }
            server.stop()
            failures.append("Xvfb started on \(server.display) but its display never answered")
        }
        throw RecorderError(description: "Xvfb could not start a display (3 attempts): " + failures.joined(separator: "; "))
    }

    /// `-displayfd` makes Xvfb pick a free display and report its number once it is ready.
    private static func launch(screen: String) async throws -> XServer {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw RecorderError(description: "pipe() failed") }
        // -noreset: an X server resets when its last client leaves, refusing connections meanwhile; a test
        // that closes every window and opens a new one must not land in that gap.
        let arguments = ["/usr/bin/Xvfb", "-displayfd", "3", "-screen", "0", screen, "-nolisten", "tcp", "-noreset"]
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // What Xvfb says goes to a file of its own (COVE_XVFB_LOG=path names one to keep): a server that
        // dies says why there, and the error quotes it.
        let kept = ProcessInfo.processInfo.environment["COVE_XVFB_LOG"]
        let log = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("cove-xvfb-\(UUID().uuidString).log").path
        defer { if kept == nil { unlink(log) } }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 3)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw RecorderError(description: "could not start Xvfb")
        }
        let reader = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        let number = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let text = String(decoding: reader.availableData, as: UTF8.self)
                continuation.resume(returning: Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
        }
        guard let number else {
            XServer(display: "", pid: pid).stop()
            let said = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").suffix(5).joined(separator: " | ") ?? ""
            throw RecorderError(description: "Xvfb did not report a display\(said.isEmpty ? "" : " (it said: \(said))")")
        }
        return XServer(display: ":\(number)", pid: pid)
    }

    @discardableResult
    public func run(_ command: String, _ arguments: String...) async throws -> String {
        let result = try await ProcessRunner.run(command, arguments, environment: ["DISPLAY": display])
        guard result.status == 0 else { throw RecorderError(description: "\(command) failed: \(result.errorOutput)") }
        return result.output
    }

    public func stop() {
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

/// Pixel checks through ImageMagick (installed by `make deps`).
public enum ImageProbe {
    public static func meanBrightness(_ png: Data) async throws -> Double {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cove-snap-\(UUID().uuidString).png")
        try png.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await meanBrightness(ofFile: file.path)
    }

    /// The mean brightness (0…1) of the `width`×`height` region at (`x`, `y`).
    public static func meanBrightness(ofFile path: String, x: Int, y: Int, width: Int, height: Int) async throws -> Double {
        let result = try await ProcessRunner.run(
            "convert", [path, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", "-colorspace", "gray", "-format", "%[fx:mean]", "info:"])
        return Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The image's width and height.
    public static func size(ofFile path: String) async throws -> (width: Int, height: Int) {
        let result = try await ProcessRunner.run("identify", ["-format", "%w %h", path])
        let parts = result.output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard parts.count == 2 else { throw RecorderError(description: "identify could not read \(path): \(result.errorOutput)") }
        return (parts[0], parts[1])
    }

    /// A hash of the pixels alone: two grabs with the same picture have the same signature.
    public static func signature(ofFile path: String) async throws -> String {
        try await ProcessRunner.run("identify", ["-format", "%#", path]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public static func meanBrightness(ofFile path: String) async throws -> Double {
        let result = try await ProcessRunner.run("convert", [path, "-colorspace", "gray", "-format", "%[fx:mean]", "info:"])
        return Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
