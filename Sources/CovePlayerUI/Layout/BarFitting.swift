/// Where one view of a fitted bar sits, in terminal columns from the bar's left edge.
public struct ViewFrame: Sendable, Hashable, CustomStringConvertible {
    /// Position of the view in `ControlBar.views` (two spacers are told apart by it).
    public let index: Int
    public let view: LayoutView
    public let x: Int
    public let width: Int

    public init(index: Int, view: LayoutView, x: Int, width: Int) {
        self.index = index
        self.view = view
        self.x = x
        self.width = width
    }

    /// One past the last column.
    public var maxX: Int { x + width }

    public var description: String { "\(view.tag)@\(x)+\(width)" }
}

/// A control bar fitted into a width: the frames of the views that are shown, left to right on screen.
public struct FittedBar: Sendable, Hashable {
    /// The available width the bar was fitted into.
    public let availableWidth: Int
    /// Shown views, sorted by `x`.
    public let frames: [ViewFrame]
    /// Indices (into `ControlBar.views`) of views left out because the width was too small, in the
    /// order they were dropped. Removed views are not listed: they were never candidates.
    public let dropped: [Int]

    public init(availableWidth: Int, frames: [ViewFrame], dropped: [Int]) {
        self.availableWidth = availableWidth
        self.frames = frames
        self.dropped = dropped
    }

    /// Columns covered by views (gaps between them excluded).
    public var usedWidth: Int { frames.reduce(0) { $0 + $1.width } }

    /// The frame of the first shown view with `tag`.
    public func frame(of tag: ControlTag) -> ViewFrame? { frames.first { $0.view.tag == tag } }
}

extension ControlBar {
    /// Lays the bar out in `width` terminal columns, with `spacing` empty columns between neighbouring
    /// shown views. A pure function: the same bar and width always give the same frames.
    ///
    /// The rule:
    /// 1. Removed views take no space and no spacing.
    /// 2. Every other view needs its `width` (a minimum: views are never shrunk below it). While the
    ///    needs plus the gaps exceed `width`, the view with the lowest `LayoutView.dropRank` is dropped —
    ///    elastic empty boxes (spacers) first, then fixed empty boxes, then controls from the least
    ///    important (`ControlTag.fittingPriority`); between equal ranks the rightmost goes first. A bar
    ///    too narrow even for its most important view shows nothing. Nothing ever overflows.
    /// 3. The spare columns go to the elastic views still shown, in proportion to elasticity, by
    ///    cumulative rounding: the view whose elasticities up to and including it add up to `c` ends at
    ///    `round(spare × c / total)` — so shares sum exactly to the spare room and each is within one
    ///    column of its exact proportion. With no elastic view, the spare room stays at the trailing end.
    /// 4. Views are placed from the leading edge in bar order. Right to left, the result is mirrored:
    ///    the first view sits at the right edge (`x' = width − x − w`), and frames stay sorted by `x`.
    ///
    /// Guarantees: every frame has `x ≥ 0`, a width at least its view's `width`, `maxX ≤ width`, at least
    /// `spacing` columns from its neighbour; no frame is removed; negative inputs count as 0.
    public func fit(width available: Int, spacing: Int = 1, direction: LayoutDirection = .leftToRight) -> FittedBar {
        let available = max(0, available)
        let spacing = max(0, spacing)
        var shown = views.indices.filter { !views[$0].isRemoved }
        var dropped: [Int] = []

        func needed(_ indices: [Int]) -> Int {
            indices.reduce(0) { $0 + views[$1].width } + spacing * max(0, indices.count - 1)
        }
        while !shown.isEmpty, needed(shown) > available {
            // Lowest rank first; the rightmost among equals.
            let victim = shown.min { a, b in
                let ra = views[a].dropRank, rb = views[b].dropRank
                return ra != rb ? ra < rb : a > b
            }!
            shown.removeAll { $0 == victim }
            dropped.append(victim)
        }

        let spare = available - needed(shown)
        let totalElasticity = shown.reduce(0.0) { $0 + views[$1].elasticity }
        let lastElastic = shown.last { views[$0].isElastic }
        var frames: [ViewFrame] = []
        var x = 0
        var cumulative = 0.0
        var handedOut = 0
        for index in shown {
            let view = views[index]
            var extra = 0
            if view.isElastic, spare > 0 {
                cumulative += view.elasticity
                let end = index == lastElastic ? spare : min(spare, Int((Double(spare) * cumulative / totalElasticity).rounded()))
                extra = max(0, end - handedOut)
                handedOut += extra
            }
            frames.append(ViewFrame(index: index, view: view, x: x, width: view.width + extra))
            x += view.width + extra + spacing
        }

        if direction == .rightToLeft {
            frames = frames.reversed().map { ViewFrame(index: $0.index, view: $0.view, x: available - $0.maxX, width: $0.width) }
        }
        return FittedBar(availableWidth: available, frames: frames, dropped: dropped)
    }
}
