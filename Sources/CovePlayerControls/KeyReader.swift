import Foundation

/// A key the control bar understands.
enum Key: Equatable, Sendable {
    case character(Character)
    case left, right, up, down, enter, escape, backspace
}

/// Reads stdin on its own thread (a blocking read must not hold a task) and decodes the bytes a
/// terminal sends for keys: printable characters, arrows (`ESC [ A…D`, also `ESC O A…D`), Enter,
/// Escape. Unknown sequences are dropped, never misread as characters.
enum KeyReader {
    static func keys() -> AsyncStream<Key> {
        let (stream, continuation) = AsyncStream.makeStream(of: Key.self)
        let thread = Thread {
            var decoder = KeyDecoder()
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 {
                for key in decoder.feed(byte) { continuation.yield(key) }
                if decoder.isAwaitingEscapeSequence {
                    // A lone Escape sends nothing after it: wait briefly for the rest of a sequence.
                    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                    if poll(&descriptor, 1, 50) == 0 { for key in decoder.flushEscape() { continuation.yield(key) } }
                }
            }
            continuation.finish()
        }
        thread.name = "cove-keys"
        thread.start()
        return stream
    }
}

/// Bytes to keys, one byte at a time (pure, so it is tested without a terminal).
struct KeyDecoder {
    private var pending: [UInt8] = []

    mutating func feed(_ byte: UInt8) -> [Key] {
        if pending.isEmpty {
            switch byte {
            case 0x1B:
                pending = [byte]
                return []
            case 0x0D, 0x0A: return [.enter]
            case 0x7F, 0x08: return [.backspace]
            case 0x20...0x7E: return [.character(Character(Unicode.Scalar(byte)))]
            default: return []
            }
        }
        pending.append(byte)
        if pending.count == 2 {
            // ESC followed by something other than [ or O: a lone Escape, then that byte.
            guard byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") else {
                pending = []
                return [.escape] + feed(byte)
            }
            return []
        }
        defer { pending = [] }
        switch byte {
        case UInt8(ascii: "A"): return [.up]
        case UInt8(ascii: "B"): return [.down]
        case UInt8(ascii: "C"): return [.right]
        case UInt8(ascii: "D"): return [.left]
        default: return []
        }
    }

    var isAwaitingEscapeSequence: Bool { pending == [0x1B] }

    /// A lone Escape is only known once no more bytes follow it; the reader flushes it after a pause.
    mutating func flushEscape() -> [Key] {
        guard pending == [0x1B] else { return [] }
        pending = []
        return [.escape]
    }
}
