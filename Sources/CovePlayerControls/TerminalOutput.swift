import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered terminal output: every line is written (and so flushed) as soon as it is produced,
/// which `cove probe --trace` consumers rely on.
public enum Terminal {
    public static let isTTY = isatty(STDOUT_FILENO) == 1

    public static func line(_ text: String) {
        write(text + "\n")
    }

    public static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    public static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Seconds as `m:ss.s`.
    public static func clock(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "--:--" }
        let total = max(0, seconds)
        let minutes = Int(total) / 60
        let rest = total - Double(minutes * 60)
        return String(format: "%d:%04.1f", minutes, rest)
    }
}

/// Stops on Ctrl-C: the first one ends playback cleanly, a second one exits at once.
public enum Interrupt {
    public static func install(_ onInterrupt: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let count = Counter()
        source.setEventHandler {
            if count.increment() > 1 { exit(130) }
            onInterrupt()
        }
        source.resume()
        return source
    }

    /// Returns on the first Ctrl-C (servers run until then).
    public static func wait() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let stop = install { continuation.finish() }
        defer { stop.cancel() }
        for await _ in stream {}
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}
