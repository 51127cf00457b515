/// One box in a control bar (the seed's `BCOVPUILayoutView`): a control, a minimum width in terminal
/// columns and an elasticity saying how much of a bar's spare room it takes.
///
/// The seed shares one layout-view object between its standard and compact bars, so setting `removed`
/// hides it in both. Values cannot share, so `ControlLayout.settingRemoved(_:for:)` does the same by tag.
public struct LayoutView: Sendable, Hashable, CustomStringConvertible {
    public let tag: ControlTag
    /// Minimum width in terminal columns; the view never gets less (it is dropped instead).
    public let width: Int
    /// 0 is fixed; above 0, the share of spare room relative to the other elastic views in the bar
    /// (2 grows twice as fast as 1).
    public let elasticity: Double
    /// Takes no space and is not drawn (the seed's `removed`): a captions button before any track is known.
    public let isRemoved: Bool

    /// A view for `tag`. A nil width is the tag's `defaultWidth`. A negative width counts as 0 and a
    /// negative or non-finite elasticity as 0 (fixed): layouts are written as literals, and a typo there
    /// should give a fixed-size control rather than a player that cannot draw its bar.
    public init(_ tag: ControlTag, width: Int? = nil, elasticity: Double = 0, isRemoved: Bool = false) {
        self.tag = tag
        self.width = max(0, width ?? tag.defaultWidth)
        self.elasticity = elasticity.isFinite && elasticity > 0 ? elasticity : 0
        self.isRemoved = isRemoved
    }

    public var isElastic: Bool { elasticity > 0 }

    /// The same view, removed or restored.
    public func removed(_ removed: Bool = true) -> LayoutView {
        LayoutView(tag, width: width, elasticity: elasticity, isRemoved: removed)
    }

    /// Order in which views are dropped from a bar that is too narrow, lowest first: elastic empty boxes
    /// (spacers) 0, fixed empty boxes 1, then every control at `tag.fittingPriority + 2` (custom 12 …
    /// playback 102).
    public var dropRank: Int {
        if tag == .empty { return isElastic ? 0 : 1 }
        return tag.fittingPriority + 2
    }

    public var description: String {
        var text = "\(tag) w\(width)"
        if isElastic { text += " e\(elasticity)" }
        if isRemoved { text += " removed" }
        return text
    }
}
