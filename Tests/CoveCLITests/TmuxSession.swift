import CoveTesting
import Foundation

/// A detached tmux session running one command, for driving a terminal program the way a person
/// would: keys in with `send-keys`, the screen out with `capture-pane`. Each test gets its own
/// server socket, so parallel tests and the user's own tmux never meet.
struct TmuxSession {
    let socket: String
    let name = "cove"

    static func start(command: [String], width: Int, height: Int) async throws -> TmuxSession {
        let session = TmuxSession(socket: "cove-test-\(UUID().uuidString.prefix(8))")
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        // The shell prints the exit status and keeps the pane open, so the end can be read too.
        // This first call starts the tmux server, which stays behind as a daemon: it must not
        // inherit pipes a runner would wait on for end of file, so it gets /dev/null.
        let status = await spawnAndWait([
            "/usr/bin/tmux", "-L", session.socket, "new-session", "-d", "-s", session.name, "-x", "\(width)", "-y", "\(height)",
            "\(quoted); echo EXIT=$?; sleep 600",
        ])
        guard status == 0 else { throw TmuxError(description: "tmux new-session failed with status \(status)") }
        return session
    }

    func send(_ keys: String) async throws {
        try await tmux(["send-keys", "-t", name, keys])
    }

    func screen() async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", name]).output
    }

    /// Polls the screen until `condition` holds; the polling interval is the only wait, as a
    /// terminal offers no event to await.
    @discardableResult
    func waitForScreen(_ what: String, timeout: Duration = .seconds(20), _ condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var last = ""
        while ContinuousClock.now < deadline {
            last = try await screen()
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TmuxError(description: "timed out waiting for \(what); the screen was:\n\(last)")
    }

    func stop() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = ["-L", socket, "kill-server"]
        try? process.run()
        process.waitUntilExit()
    }

    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> ProcessRunner.Result {
        let result = try await ProcessRunner.run("/usr/bin/tmux", ["-L", socket] + arguments)
        guard result.status == 0 else { throw TmuxError(description: "tmux \(arguments.first ?? "") failed: \(result.errorOutput)") }
        return result
    }
}

/// Runs a program with /dev/null for its standard streams and waits for it with `waitpid` on a
/// thread of its own. The tmux server this starts stays behind as a daemon, so it must inherit no
/// pipe a reader waits on; and Foundation's `Process` did not notice this client's exit here.
/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+; the Glibc module does not export it).
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func systemAddCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

private func spawnClosesDescriptors(from descriptor: Int32, _ actions: inout posix_spawn_file_actions_t) -> Int32 {
    systemAddCloseFrom(&actions, descriptor)
}

private func spawnAndWait(_ arguments: [String]) async -> Int32 {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
            // The tmux server this starts lives on (up to its `sleep 600`): it must hold none of this process's
            // descriptors, whatever another test has open at this moment (a child's output pipe).
            _ = spawnClosesDescriptors(from: 3, &actions)
            let argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return continuation.resume(returning: -1) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS, spelled out (the C macros do not import).
            continuation.resume(returning: (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1)
        }
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
}
