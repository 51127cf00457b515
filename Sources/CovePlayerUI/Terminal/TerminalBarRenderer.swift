/// Draws a fitted control layout as terminal lines: each control's text in its frame, padded or
/// cut to the frame's width in columns (wide CJK characters count two), with ANSI colours when the
/// output is a terminal and plain text otherwise. Pure: the same state and width give the same lines.
public struct TerminalBarRenderer: Sendable {
    public let localizer: Localizer
    public let colours: Bool
    public let jumpBackSeconds: Int

    public init(localizer: Localizer = Localizer(), colours: Bool, jumpBackSeconds: Int = 10) {
        self.localizer = localizer
        self.colours = colours
        self.jumpBackSeconds = jumpBackSeconds
    }

    /// One line per bar of `layout` at `width` columns (compact layouts have two).
    public func lines(layout: ControlLayout, state: ControlBarState, width: Int) -> [String] {
        layout.fit(width: width, direction: localizer.layoutDirection).map { bar in
            var line = ""
            var column = 0
            for frame in bar.frames.sorted(by: { $0.x < $1.x }) {
                if frame.x > column { line += String(repeating: " ", count: frame.x - column) }
                line += cell(frame.view.tag, width: frame.width, state: state)
                column = frame.x + frame.width
            }
            return line
        }
    }

    private enum Style { case plain, accent, highlight, dim, warning, bumper }

    private func cell(_ tag: ControlTag, width: Int, state: ControlBarState) -> String {
        switch tag {
        case .playback:
            return styled(fit(state.isPlaying ? "❚❚" : "▶", width, centred: true), .accent)
        case .jumpBack:
            return styled(fit("↺\(jumpBackSeconds)", width, centred: true), state.canSeek ? .plain : .dim)
        case .currentTime:
            return fit(TimeText.clock(state.position), width, alignRight: true)
        case .timeSeparator:
            return fit("/", width, centred: true)
        case .duration:
            return fit(state.duration.map { TimeText.clock($0) } ?? "--:--", width)
        case .progress:
            return slider(width: width, state: state)
        case .closedCaption:
            return styled(fit("CC", width, centred: true), state.captionsOn ? .highlight : .dim)
        case .preferredBitrate:
            return fit(state.bitrateLabel, width, centred: true)
        case .live:
            let text = state.isAtLiveEdge ? "● " + localizer.string(.live) : localizer.string(.goToLive)
            return styled(fit(text, width, centred: true), state.isAtLiveEdge ? .warning : .plain)
        case .adPodCountdown:
            guard case .ad(let ad) = state.phase else { return fit("", width) }
            return styled(fit(localizer.adCountdown(ad), width), .warning)
        case .learnMore:
            guard case .ad(let ad) = state.phase, ad.clickThroughURL != nil else { return fit("", width) }
            return styled(fit(localizer.string(.learnMore), width, centred: true), .accent)
        case .skipAdCountdown, .skip:
            guard let skipIn = state.skipIn else { return fit("", width) }
            if skipIn <= .zero { return styled(fit(localizer.string(.skipAd) + " ▶", width, centred: true), .highlight) }
            return fit(localizer.string(.skipAdIn, [.time: TimeText.clock(skipIn, rounding: .up)]), width, centred: true)
        case .screenMode:
            return fit("⛶", width, centred: true)
        case .volume:
            return fit("🔈", width, centred: true)
        case .empty, .externalRoute, .video360, .pictureInPicture, .custom:
            return fit("", width)
        }
    }

    /// `━━━━●────`: the played part, the playhead, the rest. Ads draw a plain bar and bumpers a purple
    /// bar without a playhead (`━━━━────`): neither can seek.
    private func slider(width: Int, state: ControlBarState) -> String {
        guard width > 0 else { return "" }
        guard let duration = state.duration, duration > .zero else { return styled(String(repeating: "─", count: width), .dim) }
        let fraction = min(1, max(0, state.position / duration))
        let head = min(width - 1, Int((fraction * Double(width - 1)).rounded()))
        if state.phase.isAd { return styled(String(repeating: "━", count: width), .warning) }
        if state.phase == .bumper {
            let played = Int((fraction * Double(width)).rounded())
            return styled(String(repeating: "━", count: played), .bumper) + styled(String(repeating: "─", count: width - played), .dim)
        }
        return styled(String(repeating: "━", count: head), .accent) + styled("●", .highlight) + styled(String(repeating: "─", count: width - head - 1), .dim)
    }

    /// `text` laid into exactly `width` columns.
    private func fit(_ text: String, _ width: Int, centred: Bool = false, alignRight: Bool = false) -> String {
        guard width > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let columns = TerminalColumns.width(of: String(character))
            if used + columns > width { break }
            kept.append(character)
            used += columns
        }
        let room = width - used
        if alignRight { return String(repeating: " ", count: room) + kept }
        if centred {
            let left = room / 2
            return String(repeating: " ", count: left) + kept + String(repeating: " ", count: room - left)
        }
        return kept + String(repeating: " ", count: room)
    }

    private func styled(_ text: String, _ style: Style) -> String {
        guard colours, !text.isEmpty else { return text }
        let code: String
        switch style {
        case .plain: return text
        case .accent: code = "36"
        case .highlight: code = "1;7"
        case .dim: code = "2"
        case .warning: code = "33"
        case .bumper: code = "35"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
