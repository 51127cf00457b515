/// A video sink's frame counts over a whole pipeline. GStreamer's base sink counts rendered and dropped
/// frames only since its last flush (every seek and rate change resets them), so the counts are read
/// often — before each flush and at the end — and a drop in either means a reset: what was counted
/// before it is kept.
struct FrameTally: Sendable, Hashable {
    struct Counts: Sendable, Hashable {
        var rendered: Int
        var dropped: Int
    }

    private var base = Counts(rendered: 0, dropped: 0)
    private var last = Counts(rendered: 0, dropped: 0)

    /// Folds in the sink's counts as read now; returns the pipeline's totals.
    mutating func observe(_ counts: Counts) -> Counts {
        if counts.rendered < last.rendered || counts.dropped < last.dropped {
            base = Counts(rendered: base.rendered + last.rendered, dropped: base.dropped + last.dropped)
        }
        last = counts
        return total
    }

    var total: Counts { Counts(rendered: base.rendered + last.rendered, dropped: base.dropped + last.dropped) }
}
