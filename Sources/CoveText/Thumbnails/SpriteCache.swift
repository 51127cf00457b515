import CoveCore

/// The decoded sprite sheets of one thumbnail track, least recently used first out, bounded by count
/// and decoded bytes. Failures are kept too (they cost one entry and no bytes), so scrubbing across a
/// missing sheet asks the server once rather than at every position.
struct SpriteCache: Sendable {
    private var entries: [(key: String, value: Result<RGBAImage, ThumbnailError>)] = []
    private let maxCount: Int
    private let maxBytes: Int

    init(maxCount: Int, maxBytes: Int) {
        self.maxCount = maxCount
        self.maxBytes = maxBytes
    }

    /// The cached outcome for `key`, marked as just used.
    mutating func value(for key: String) -> Result<RGBAImage, ThumbnailError>? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.value
    }

    mutating func insert(_ value: Result<RGBAImage, ThumbnailError>, for key: String) {
        entries.removeAll { $0.key == key }
        guard Self.cost(value) <= maxBytes, maxCount > 0 else { return }
        entries.append((key, value))
        while entries.count > maxCount || totalBytes > maxBytes { entries.removeFirst() }
    }

    var count: Int { entries.count }
    var totalBytes: Int { entries.reduce(0) { $0 + Self.cost($1.value) } }

    private static func cost(_ value: Result<RGBAImage, ThumbnailError>) -> Int {
        if case .success(let image) = value { return image.pixels.count }
        return 0
    }
}
