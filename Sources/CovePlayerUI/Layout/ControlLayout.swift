/// A full set of control bars (the seed's `BCOVPUIControlLayout`): standard bars for a wide terminal and
/// compact bars — usually two shorter rows — for a narrow one.
public struct ControlLayout: Sendable, Hashable {
    /// Rows shown when the width is above `compactLayoutMaximumWidth`, top to bottom.
    public let standardBars: [ControlBar]
    /// Rows shown at or below `compactLayoutMaximumWidth`, top to bottom.
    public let compactBars: [ControlBar]
    /// The widest terminal (in columns) that still gets the compact bars. The seed switches when the view
    /// is narrower than this value; Cove's bound is inclusive, which is what "maximum width of the
    /// compact controls" says.
    public let compactLayoutMaximumWidth: Int
    /// Empty columns between neighbouring views (the seed's `horizontalItemSpacing`).
    public let horizontalItemSpacing: Int

    /// The default switch point: an 80-column terminal gets the standard bars; a split pane or a phone's
    /// SSH client (≈ 40–60 columns) the compact ones.
    public static let defaultCompactLayoutMaximumWidth = 60

    public init(
        standard: [ControlBar], compact: [ControlBar],
        compactLayoutMaximumWidth: Int = ControlLayout.defaultCompactLayoutMaximumWidth, horizontalItemSpacing: Int = 1
    ) {
        self.standardBars = standard
        self.compactBars = compact
        self.compactLayoutMaximumWidth = compactLayoutMaximumWidth
        self.horizontalItemSpacing = max(0, horizontalItemSpacing)
    }

    /// Whether `width` columns get the compact bars.
    public func isCompact(width: Int) -> Bool { width <= compactLayoutMaximumWidth }

    /// The bars for a terminal `width` columns wide.
    public func bars(forWidth width: Int) -> [ControlBar] { isCompact(width: width) ? compactBars : standardBars }

    /// The bars for `width`, each fitted into it (see `ControlBar.fit` for the rule).
    public func fit(width: Int, direction: LayoutDirection = .leftToRight) -> [FittedBar] {
        bars(forWidth: width).map { $0.fit(width: width, spacing: horizontalItemSpacing, direction: direction) }
    }

    /// Every tag in either set of bars.
    public var allTags: Set<ControlTag> { Set((standardBars + compactBars).flatMap(\.tags)) }

    /// The same layout with every view of `tag`, standard and compact, removed or restored.
    public func settingRemoved(_ removed: Bool, for tag: ControlTag) -> ControlLayout {
        ControlLayout(
            standard: standardBars.map { $0.settingRemoved(removed, for: tag) },
            compact: compactBars.map { $0.settingRemoved(removed, for: tag) },
            compactLayoutMaximumWidth: compactLayoutMaximumWidth, horizontalItemSpacing: horizontalItemSpacing)
    }

    /// The same bars with another switch point.
    public func withCompactLayoutMaximumWidth(_ width: Int) -> ControlLayout {
        ControlLayout(standard: standardBars, compact: compactBars, compactLayoutMaximumWidth: width, horizontalItemSpacing: horizontalItemSpacing)
    }

    /// A layout with no bars: what is shown when controls are hidden (a bumper with `showBumperControls` off).
    public static let empty = ControlLayout(standard: [], compact: [])
}
