import Foundation

/// Bytes of one media file already fetched, kept up to a limit so that a seek, or the demuxer reading its
/// index again, lands on bytes Cove already holds and needs no request (a browser's media cache does the
/// same; GStreamer's HTTP source fetches again on every seek).
///
/// Chunks are kept as they arrived (no copy), sorted by offset and never overlapping: a chunk that covers
/// bytes already held keeps only its new parts. Over the limit, the chunks farthest from where reading
/// happens now go first, so the bytes around the playhead, behind and ahead, stay.
struct ByteCache: Sendable {
    struct Chunk: Sendable {
        let offset: Int64
        let data: Data
        var end: Int64 { offset + Int64(data.count) }
    }

    let limit: Int
    private(set) var chunks: [Chunk] = []
    private(set) var total = 0

    init(limit: Int) { self.limit = max(limit, 0) }

    /// Keeps `data` fetched at `offset` (its bytes not held yet), then trims to the limit around `anchor`.
    mutating func insert(_ data: Data, at offset: Int64, anchor: Int64) {
        guard limit > 0, !data.isEmpty else { return }
        var start = offset
        let end = offset + Int64(data.count)
        var index = firstIndex(endingAfter: start)
        var pieces: [Chunk] = []
        while start < end {
            if index < chunks.count, chunks[index].offset <= start {
                // Held already: skip past it.
                start = max(start, chunks[index].end)
                index += 1
                continue
            }
            let stop = index < chunks.count ? min(end, chunks[index].offset) : end
            let from = data.startIndex + Int(start - offset), to = data.startIndex + Int(stop - offset)
            pieces.append(Chunk(offset: start, data: from == data.startIndex && to == data.endIndex ? data : data.subdata(in: from..<to)))
            start = stop
        }
        guard !pieces.isEmpty else { return }
        for piece in pieces {
            let at = firstIndex(endingAfter: piece.offset)
            chunks.insert(piece, at: at)
            total += piece.data.count
        }
        trim(around: anchor)
    }

    /// The held bytes that follow on from `offset` without a gap, at most `maxLength` of them, as the
    /// chunks they are in (the first one cut to start at `offset`).
    func contiguous(from offset: Int64, maxLength: Int) -> [Chunk] {
        var index = firstIndex(endingAfter: offset)
        var position = offset
        var taken = 0
        var run: [Chunk] = []
        while index < chunks.count, taken < maxLength {
            let chunk = chunks[index]
            guard chunk.offset <= position else { break }
            let skip = Int(position - chunk.offset)
            let length = min(chunk.data.count - skip, maxLength - taken)
            let from = chunk.data.startIndex + skip
            let data = skip == 0 && length == chunk.data.count ? chunk.data : chunk.data.subdata(in: from..<from + length)
            run.append(Chunk(offset: position, data: data))
            position += Int64(length)
            taken += length
            index += 1
        }
        return run
    }

    /// Where the next held byte at or after `offset` is (the end of a network read that should not fetch
    /// what is held), or nil when nothing is held beyond `offset`.
    func nextHeldOffset(after offset: Int64) -> Int64? {
        let index = firstIndex(endingAfter: offset)
        return index < chunks.count ? max(chunks[index].offset, offset) : nil
    }

    /// Drops the chunks farthest from `anchor` until the held bytes fit the limit.
    private mutating func trim(around anchor: Int64) {
        while total > limit, let first = chunks.first, let last = chunks.last {
            let behind = anchor - first.end, ahead = last.offset - anchor
            if chunks.count == 1 || behind >= ahead {
                total -= first.data.count
                chunks.removeFirst()
            } else {
                total -= last.data.count
                chunks.removeLast()
            }
        }
    }

    /// The first chunk whose end lies after `offset` (binary search; chunks are sorted and disjoint).
    private func firstIndex(endingAfter offset: Int64) -> Int {
        var low = 0, high = chunks.count
        while low < high {
            let mid = (low + high) / 2
            if chunks[mid].end <= offset { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
