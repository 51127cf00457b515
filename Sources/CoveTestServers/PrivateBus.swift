import CoveServer
import CoveTestSupport
import Foundation

/// A D-Bus session bus of the test's own (MPRIS tests, `cove play` under playerctl) (`dbus-daemon --session --nofork`), so tests never touch the
/// desktop's bus nor each other's; its address goes to the service as `busAddress` and to `playerctl`
/// and `dbus-send` through their environment.
public struct PrivateBus: Sendable {
    public let address: String
    private let daemon: ProcessRunner.Running

    public static let daemonPath = "/usr/bin/dbus-daemon"

    public static func start() async throws -> PrivateBus {
        guard FileManager.default.isExecutableFile(atPath: daemonPath) else {
            throw RecorderError(description: "\(daemonPath) is missing: apt-get install -y dbus playerctl")
        }
        let daemon = try ProcessRunner.start(daemonPath, ["--session", "--nofork", "--print-address=1"])
        let address = try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                for await line in daemon.lines where !line.isEmpty { return line }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let address, address.hasPrefix("unix:") else {
            daemon.kill()
            throw RecorderError(description: "dbus-daemon printed no address within 10 s")
        }
        return PrivateBus(address: address, daemon: daemon)
    }

    public func stop() async {
        daemon.kill()
        _ = await daemon.status()
    }

    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Runs `playerctl` against this bus.
    @discardableResult
    public func playerctl(_ arguments: String...) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run("playerctl", arguments, environment: environment)
    }

    /// Runs `playerctl` until its trimmed output satisfies `accept`, every 100 ms for up to `timeout`;
    /// returns that output, or throws with the last output and error.
    @discardableResult
    public func poll(_ arguments: [String], timeout: Duration = .seconds(15), until accept: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var last = ProcessRunner.Result?.none
        while ContinuousClock.now < deadline {
            let result = try await ProcessRunner.run("playerctl", arguments, environment: environment)
            last = result
            let output = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
            if result.status == 0, accept(output) { return output }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw RecorderError(
            description: "playerctl \(arguments.joined(separator: " ")) never gave the awaited output in \(timeout); last: status \(last?.status ?? -1), "
                + "out \"\(last?.output ?? "")\", err \"\(last?.errorOutput ?? "")\"")
    }

    /// Watches the bus's messages that match `rule` (`dbus-monitor`); returns once the monitor listens
    /// (it prints its own NameAcquired first). Each element is one message as dbus-monitor prints it,
    /// yielded again as each of its lines arrives (so a wait never depends on the next message coming).
    public func watch(_ rule: String) async throws -> (messages: AsyncStream<String>, monitor: ProcessRunner.Running) {
        let monitor = try ProcessRunner.start("/usr/bin/dbus-monitor", ["--session", rule], environment: environment)
        let (messages, sink) = AsyncStream.makeStream(of: String.self)
        let (ready, readySink) = AsyncStream.makeStream(of: Void.self)
        Task {
            var message = ""
            for await line in monitor.lines {
                readySink.yield()
                let isHeader = ["signal ", "method call ", "method return ", "error "].contains { line.hasPrefix($0) }
                message = isHeader ? line : message + "\n" + line
                sink.yield(message)
            }
            readySink.finish()
            sink.finish()
        }
        for await _ in ready { break }
        return (messages, monitor)
    }

    /// The first of `messages` that `accept` takes within `timeout`, or nil.
    public func first(
        _ messages: AsyncStream<String>, within timeout: Duration = .seconds(10), where accept: @escaping @Sendable (String) -> Bool
    ) async -> String? {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                for await message in messages where accept(message) { return message }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }

    /// The names on the bus (`ListNames`).
    public func names() async throws -> [String] {
        let result = try await ProcessRunner.run(
            "dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames"],
            environment: environment)
        guard result.status == 0 else { throw RecorderError(description: "ListNames failed: \(result.errorOutput)") }
        return result.output.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("string \"") else { return nil }
            return String(trimmed.dropFirst("string \"".count).dropLast())
        }
    }

    /// The unique name owning `name`, or nil when nobody does.
    public func owner(of name: String) async throws -> String? {
        let result = try await ProcessRunner.run(
            "dbus-send",
            ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetNameOwner", "string:\(name)"],
            environment: environment)
        guard result.status == 0 else { return nil }
        return result.output.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "string ", with: "") }
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }
}

extension PrivateBus {
    /// Whether `dbus-daemon` and `playerctl` are installed (`make deps`).
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: daemonPath) && FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl")
    }
}
