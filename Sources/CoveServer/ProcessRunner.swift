import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a command without blocking Swift's concurrency pool: pipes drain on their own threads and the
/// exit status arrives through the termination handler. Use it whenever the process may talk to a
/// server living in the same process (a blocked pool thread could starve that server).
public enum ProcessRunner {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: Data
        public let stderr: Data
        /// The process outlived its time limit and was aborted (its backtrace, if it printed one, is in
        /// `stderr`).
        public var timedOut: Bool = false
        public var output: String { String(decoding: stdout, as: UTF8.self) }
        public var errorOutput: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments`.
    ///
    /// A process still running after `timeLimit` is a hang, never a wait without end: it gets SIGABRT (a
    /// Swift program's backtracer then prints every thread to its standard error, which the result keeps),
    /// then SIGKILL half a minute later, and the result says `timedOut`.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeLimit: Duration = .seconds(300)
    ) async throws -> Result {
        let process = Process()
        if executable.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = try ClosedOnExecPipe()
        let err = try ClosedOnExecPipe()
        process.standardOutput = out.writing
        process.standardError = err.writing
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { finished in
            exited.continuation.yield(finished.terminationStatus)
            exited.continuation.finish()
        }
        try runUnmasked(process)
        // The child has its copies: the reader sees the end when the child (and only the child) is done.
        try? out.writing.close()
        try? err.writing.close()
        async let output = drain(out.reading)
        async let errors = drain(err.reading)
        let pid = process.processIdentifier
        let watchdog = Task {
            guard (try? await Task.sleep(for: timeLimit)) != nil else { return false }
            Glibc.kill(pid, SIGABRT)
            guard (try? await Task.sleep(for: .seconds(30))) != nil else { return true }
            Glibc.kill(pid, SIGKILL)
            return true
        }
        var status: Int32 = -1
        for await code in exited.stream { status = code }
        watchdog.cancel()
        var result = Result(status: status, stdout: await output, stderr: await errors)
        result.timedOut = await watchdog.value
        return result
    }

    /// Starts `process` with no signal blocked. A child inherits the starting thread's signal mask, and
    /// Swift's concurrency threads (libdispatch workers) block nearly every signal: a child started from
    /// one could not be interrupted, and SIGABRT (the time limit's) would not reach a hung one.
    static func runUnmasked(_ process: Process) throws {
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    private static func drain(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: handle.readDataToEndOfFile()) }
        }
    }
}

extension ProcessRunner {
    /// A process left running: its standard output arrives line by line while it runs (for servers
    /// that print their address and wait), and it can be interrupted like Ctrl-C.
    public final class Running: Sendable {
        private let process: Process
        /// Standard output, one line at a time; finishes when the process closes it.
        public let lines: AsyncStream<String>
        private let exit: AsyncStream<Int32>

        fileprivate init(process: Process, lines: AsyncStream<String>, exit: AsyncStream<Int32>) {
            self.process = process
            self.lines = lines
            self.exit = exit
        }

        /// Sends SIGINT; does nothing once the process has ended.
        public func interrupt() { if process.isRunning { process.interrupt() } }

        /// Sends SIGKILL; does nothing once the process has ended. For watchdogs and cleanup.
        public func kill() { if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) } }

        /// Waits for the process to end and returns its exit status.
        public func status() async -> Int32 {
            var status: Int32 = -1
            for await code in exit { status = code }
            return status
        }
    }

    /// Starts `executable` and returns at once; standard error is discarded.
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = try ClosedOnExecPipe()
        process.standardOutput = out.writing
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let (lines, lineSink) = AsyncStream.makeStream(of: String.self)
        let (exit, exitSink) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { finished in
            exitSink.yield(finished.terminationStatus)
            exitSink.finish()
        }
        try runUnmasked(process)
        try? out.writing.close()
        let handle = out.reading
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lineSink.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { lineSink.yield(String(decoding: pending, as: UTF8.self)) }
            lineSink.finish()
        }
        return Running(process: process, lines: lines, exit: exit)
    }
}

/// A pipe made with its close-on-exec flag already set (`pipe2(O_CLOEXEC)`, one atomic call): no program
/// another thread starts at that moment inherits it. (Setting the flag after `pipe()` left a window in which
/// a tmux server that a CLI test started inherited a kill-test child's output pipe and held it open for its
/// 600 s, so the test waited that long for the end of the output.) The child still gets its end as standard
/// output: the copy made for it is not closed on exec. Close `writing` in the parent once the child runs.
/// glibc's `pipe2` (a GNU extension the Glibc module does not export).
@_silgen_name("pipe2")
private func systemPipe2(_ descriptors: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

struct ClosedOnExecPipe {
    let reading: FileHandle
    let writing: FileHandle

    init() throws {
        var descriptors: [Int32] = [0, 0]
        guard systemPipe2(&descriptors, O_CLOEXEC) == 0 else { throw FixtureError(description: "pipe2 failed: errno \(errno)") }
        reading = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
    }
}
