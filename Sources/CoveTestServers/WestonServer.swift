import CoveServer
import CoveTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A private Wayland compositor for window tests: weston's headless backend with its software renderer
/// (so screenshots have pixels), its socket in a runtime folder of its own. Clients reach it by the
/// socket's absolute path (`socketPath`), which libwayland takes as the display name.
public struct WestonServer: Sendable {
    public let runtimeDirectory: URL
    public let socketName: String
    private let process: ProcessRunner.Running

    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/weston") && FileManager.default.isExecutableFile(atPath: "/usr/bin/weston-screenshooter")
    }

    public var socketPath: String { runtimeDirectory.appendingPathComponent(socketName).path }

    /// Starts weston (`width`×`height`, screenshots allowed) and waits until its socket answers.
    public static func start(width: Int = 960, height: Int = 540) async throws -> WestonServer {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("cove-weston-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let socket = "cove-wayland"
        let process = try ProcessRunner.start(
            "/usr/bin/weston",
            [
                "--backend=headless-backend.so", "--use-pixman", "--socket=\(socket)", "--width=\(width)", "--height=\(height)", "--idle-time=0",
                "--debug",
            ],
            environment: ["XDG_RUNTIME_DIR": runtime.path])
        let server = WestonServer(runtimeDirectory: runtime, socketName: socket, process: process)
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if (try? await ProcessRunner.run("/usr/bin/weston-info", [], environment: server.environment))?.status == 0 { return server }
            try await Task.sleep(for: .milliseconds(100))
        }
        server.stop()
        throw RecorderError(description: "weston's headless compositor did not answer on \(server.socketPath) within 15 s")
    }

    /// The environment a Wayland client of this compositor runs with.
    public var environment: [String: String] { ["XDG_RUNTIME_DIR": runtimeDirectory.path, "WAYLAND_DISPLAY": socketName] }

    /// A screenshot of the whole output (weston-screenshooter, allowed by `--debug`), as PNG bytes.
    public func screenshot() async throws -> Data {
        let folder = runtimeDirectory.appendingPathComponent("shots-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ProcessRunner.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec /usr/bin/weston-screenshooter", folder.path], environment: environment)
        guard result.status == 0, let file = try FileManager.default.contentsOfDirectory(atPath: folder.path).first(where: { $0.hasSuffix(".png") })
        else {
            throw RecorderError(description: "weston-screenshooter took no screenshot: \(result.errorOutput)")
        }
        return try Data(contentsOf: folder.appendingPathComponent(file))
    }

    public func stop() {
        process.kill()
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }
}
