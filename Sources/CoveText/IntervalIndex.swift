/// A centred interval tree over half-open `[start, end)` intervals, flattened into arrays:
/// answers "which intervals contain t" in O(log n + k) however the intervals overlap or are
/// ordered, so a 200 000-cue file can be queried every frame. Built once, immutable after.
struct IntervalIndex: Sendable {
    private struct Node: Sendable {
        let center: Double
        /// This node's intervals (all contain `center`) in `byStart` and `byEnd`.
        let first: Int
        let count: Int
        var left: Int = -1
        var right: Int = -1
    }

    private let starts: [Double]
    private let ends: [Double]
    private var nodes: [Node] = []
    /// Per node, its intervals by ascending start.
    private var byStart: [Int] = []
    /// Per node, its intervals by descending end.
    private var byEnd: [Int] = []

    /// Intervals with `start >= end` contain nothing and are left out.
    init(starts: [Double], ends: [Double]) {
        self.starts = starts
        self.ends = ends
        let sorted = (0..<starts.count).filter { starts[$0] < ends[$0] }.sorted { starts[$0] < starts[$1] }
        byStart.reserveCapacity(sorted.count)
        byEnd.reserveCapacity(sorted.count)
        _ = build(sorted[...])
    }

    /// The indexes of the intervals containing `point`, in no particular order.
    func indexes(containing point: Double) -> [Int] {
        var result: [Int] = []
        guard !point.isNaN, !nodes.isEmpty else { return result }
        var current = 0
        while current >= 0 {
            let node = nodes[current]
            let range = node.first..<(node.first + node.count)
            if point < node.center {
                // Every interval here ends after the centre, so only its start matters.
                for slot in range {
                    let interval = byStart[slot]
                    guard starts[interval] <= point else { break }
                    result.append(interval)
                }
                current = node.left
            } else {
                // Every interval here starts at or before the centre, so only its end matters.
                for slot in range {
                    let interval = byEnd[slot]
                    guard ends[interval] > point else { break }
                    result.append(interval)
                }
                current = node.right
            }
        }
        return result
    }

    /// Builds the subtree for `intervals` (sorted by start) and returns its node index. The
    /// centre is the median start, so each side holds at most half and the depth is O(log n).
    private mutating func build(_ intervals: ArraySlice<Int>) -> Int {
        guard !intervals.isEmpty else { return -1 }
        let center = starts[intervals[intervals.startIndex + intervals.count / 2]]
        var left: [Int] = []
        var here: [Int] = []
        var right: [Int] = []
        for interval in intervals {
            if starts[interval] > center {
                right.append(interval)
            } else if ends[interval] <= center {
                left.append(interval)
            } else {
                here.append(interval)
            }
        }
        let first = byStart.count
        byStart.append(contentsOf: here)
        byEnd.append(contentsOf: here.sorted { ends[$0] > ends[$1] })
        let index = nodes.count
        nodes.append(Node(center: center, first: first, count: here.count))
        let leftChild = build(left[...])
        let rightChild = build(right[...])
        nodes[index].left = leftChild
        nodes[index].right = rightChild
        return index
    }
}
