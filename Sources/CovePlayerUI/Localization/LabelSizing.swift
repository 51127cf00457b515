extension ControlTag {
    /// The longest text the control shows in `localizer`'s language — nil for controls drawn as a glyph
    /// or whose text is not a UI string (times, the app's custom views). Countdowns are measured with
    /// "0:00" and single-digit ad numbers.
    public func longestText(_ localizer: Localizer) -> String? {
        switch self {
        case .live:
            // "● Live" at the edge, "Go to live" behind it: room for the longer, so the bar does not jump.
            return ["● " + localizer.string(.live), localizer.string(.goToLive)].max { TerminalColumns.width(of: $0) < TerminalColumns.width(of: $1) }
        case .learnMore: return localizer.string(.learnMore)
        case .skip, .skipAdCountdown:
            // The skip control counts down ("Skip ad in 0:05") until it reads "Skip ad ▶": room for the longer.
            return [localizer.string(.skipAd) + " ▶", localizer.string(.skipAdIn, [.time: "0:00"])].max {
                TerminalColumns.width(of: $0) < TerminalColumns.width(of: $1)
            }
        case .adPodCountdown: return localizer.string(.adCountdownWithTimeLeft, [.index: "9", .count: "9", .time: "0:00"])
        default: return nil
        }
    }
}

extension ControlLayout {
    /// The same layout with each text-bearing view widened, never narrowed, to hold its longest text in
    /// `localizer`'s language plus a column of padding each side: "Mehr erfahren" needs more room than
    /// "Learn more", and a Chinese character takes two columns (`TerminalColumns`).
    public func sizedForText(_ localizer: Localizer) -> ControlLayout {
        func widen(_ bar: ControlBar) -> ControlBar {
            ControlBar(
                bar.views.map { view in
                    guard let text = view.tag.longestText(localizer) else { return view }
                    let needed = TerminalColumns.width(of: text) + 2
                    guard needed > view.width else { return view }
                    return LayoutView(view.tag, width: needed, elasticity: view.elasticity, isRemoved: view.isRemoved)
                })
        }
        return ControlLayout(
            standard: standardBars.map(widen), compact: compactBars.map(widen),
            compactLayoutMaximumWidth: compactLayoutMaximumWidth, horizontalItemSpacing: horizontalItemSpacing)
    }
}
