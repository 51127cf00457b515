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
        public var output: String { String(decoding: stdout, as: UTF8.self) }
        public var errorOutput: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments`.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> Result {
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
        let out = Pipe.closedOnExec()
        let err = Pipe.closedOnExec()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { finished in
            exited.continuation.yield(finished.terminationStatus)
            exited.continuation.finish()
        }
        try process.run()
        async let output = drain(out.fileHandleForReading)
        async let errors = drain(err.fileHandleForReading)
        var status: Int32 = -1
        for await code in exited.stream { status = code }
        return Result(status: status, stdout: await output, stderr: await errors)
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
        let out = Pipe.closedOnExec()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let (lines, lineSink) = AsyncStream.makeStream(of: String.self)
        let (exit, exitSink) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { finished in
            exitSink.yield(finished.terminationStatus)
            exitSink.finish()
        }
        try process.run()
        let handle = out.fileHandleForReading
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

extension Pipe {
    /// A pipe whose descriptors other programs started meanwhile do not inherit (the child still gets its end
    /// as standard output: the copy made for it is not closed on exec). Without it, a long-lived process that
    /// another test starts at the same moment keeps the write end open, and the reader never sees the end.
    static func closedOnExec() -> Pipe {
        let pipe = Pipe()
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        }
        return pipe
    }
}
