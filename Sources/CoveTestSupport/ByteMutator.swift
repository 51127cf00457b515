/// Seeded, structure-blind mutations of parser input (bit flips, inserted and replaced "interesting"
/// bytes, deletions, truncation, duplicated chunks, spliced fragments, digit runs for number overflows):
/// the hostile-input tests of every parser share it, each with its own interesting bytes.
public struct ByteMutator: Sendable {
    public var interesting: [UInt8]
    /// Whole fragments spliced in (format keywords); none by default.
    public var splices: [[UInt8]]
    public var maxEdits: Int
    public var maxDuplicate: Int
    public var maxDigits: Int

    public init(interesting: [UInt8], splices: [[UInt8]] = [], maxEdits: Int = 4, maxDuplicate: Int = 80, maxDigits: Int = 25) {
        self.interesting = interesting.isEmpty ? [0] : interesting
        self.splices = splices
        self.maxEdits = max(maxEdits, 1)
        self.maxDuplicate = max(maxDuplicate, 1)
        self.maxDigits = max(maxDigits, 1)
    }

    /// `input` with 1…`maxEdits` random edits.
    public func mutate(_ input: [UInt8], random: inout SeededRandom) -> [UInt8] {
        var bytes = input
        for _ in 0..<random.int(1...maxEdits) {
            guard !bytes.isEmpty else { return bytes }
            let position = random.int(0...(bytes.count - 1))
            switch random.int(0...(splices.isEmpty ? 7 : 8)) {
            case 0: bytes[position] ^= UInt8(1) << UInt8(random.int(0...7))
            case 1: bytes.insert(random.pick(interesting), at: position)
            case 2: bytes.remove(at: position)
            case 3: bytes.removeSubrange(position..<min(bytes.count, position + random.int(1...40)))
            case 4: bytes.removeSubrange(position...)
            case 5: bytes[position] = random.pick(interesting)
            case 6:
                // Duplicate a chunk (a repeated tag or attribute).
                let end = min(bytes.count, position + random.int(1...maxDuplicate))
                bytes.insert(contentsOf: bytes[position..<end], at: end)
            case 7 where !splices.isEmpty:
                bytes.insert(contentsOf: random.pick(splices), at: position)
            default:
                // A digit run (number overflows).
                bytes.insert(contentsOf: Array(repeating: UInt8(ascii: "9"), count: random.int(1...maxDigits)), at: position)
            }
        }
        return bytes
    }
}
