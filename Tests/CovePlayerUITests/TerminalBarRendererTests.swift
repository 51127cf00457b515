import CoveCore
import CovePlayerUI
import Testing

@Suite("Terminal bar renderer")
struct TerminalBarRendererTests {
    let plain = TerminalBarRenderer(colours: false)

    @Test func theVODBarFillsTheWidthWithThePlayheadWhereThePositionIs() {
        let state = ControlBarState(isPlaying: true, position: .seconds(10), duration: .seconds(20))
        let lines = plain.lines(layout: .vod, state: state, width: 80)
        #expect(lines.count == 1)
        let line = lines[0]
        #expect(TerminalColumns.width(of: line) <= 80)
        #expect(line.contains("❚❚") && line.contains("↺10") && line.contains("0:10") && line.contains("0:20"))
        let slider = String(line.drop { $0 != "━" }.prefix { "━●─".contains($0) })
        let knob = try! #require(slider.firstIndex(of: "●"))
        let offset = slider.distance(from: slider.startIndex, to: knob)
        #expect(abs(Double(offset) / Double(slider.count - 1) - 0.5) < 0.05, "half way: \(slider)")
    }

    @Test func pausedShowsPlayAndColoursOnlyWithATerminal() {
        let state = ControlBarState(isPlaying: false, position: .zero, duration: .seconds(20))
        let line = plain.lines(layout: .vod, state: state, width: 80)[0]
        #expect(line.contains("▶") && !line.contains("❚❚"))
        #expect(!line.contains("\u{1B}["), "no escapes without a terminal")
        let coloured = TerminalBarRenderer(colours: true).lines(layout: .vod, state: state, width: 80)[0]
        #expect(coloured.contains("\u{1B}[36m ▶ \u{1B}[0m"))
    }

    @Test func theCompactLayoutDrawsTwoLines() {
        let state = ControlBarState(isPlaying: true, position: .seconds(3), duration: .seconds(20))
        let lines = plain.lines(layout: .vod, state: state, width: 40)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.allSatisfy { TerminalColumns.width(of: $0) <= 40 })
    }

    @Test func anAdDrawsTheCountdownAndAPlainBar() throws {
        let ad = try AdPosition(index: 1, count: 2, timeLeft: .seconds(4), clickThroughURL: "https://example.com/")
        let state = ControlBarState(isPlaying: true, position: .seconds(1), duration: .seconds(5), phase: .ad(ad))
        let layout = ControlLayout.resolved(appLayout: nil, options: .standard, mediaType: .audioVideo, videoType: .vod, phase: .ad(ad), hasTrackChoices: false)
        let line = plain.lines(layout: layout, state: state, width: 100).joined(separator: "\n")
        #expect(line.contains("Ad 1 of 2") && line.contains("Learn more"))
        #expect(!line.contains("●") && !line.contains("↺"), "no playhead, no jump back: \(line)")
    }

    @Test func aBumperDrawsItsProgressWithoutPlayheadOrJumpBackInPurple() throws {
        let state = ControlBarState(isPlaying: true, position: .seconds(2), duration: .seconds(4), phase: .bumper)
        let layout = ControlLayout.resolved(appLayout: nil, options: .standard, mediaType: .audioVideo, videoType: .vod, phase: .bumper, hasTrackChoices: false)
        let line = plain.lines(layout: layout, state: state, width: 80)[0]
        #expect(!line.contains("●") && !line.contains("↺"), "\(line)")
        #expect(line.contains("━") && line.contains("─") && line.contains("0:02") && line.contains("0:04"))
        let coloured = TerminalBarRenderer(colours: true).lines(layout: layout, state: state, width: 80)[0]
        #expect(coloured.contains("\u{1B}[35m━"), "the seed's purple bumper slider")
    }

    @Test func wideCharactersCountTwoColumnsAndArabicIsMirrored() throws {
        let ad = try AdPosition(index: 1, count: 1, timeLeft: .seconds(9))
        let state = ControlBarState(isPlaying: true, position: .seconds(1), duration: .seconds(10), phase: .ad(ad))
        let layout = ControlLayout.resolved(appLayout: nil, options: .standard, mediaType: .audioVideo, videoType: .vod, phase: .ad(ad), hasTrackChoices: false)
        for language in [UILanguage.japanese, .arabic] {
            let localizer = Localizer(language: language)
            let line = TerminalBarRenderer(localizer: localizer, colours: false).lines(layout: layout.sizedForText(localizer), state: state, width: 70)[0]
            #expect(TerminalColumns.width(of: line) <= 70, "\(language): \(line)")
            #expect(line.contains(localizer.adCountdown(ad)), "\(language): the whole countdown fits: \(line)")
        }
        let arabic = Localizer(language: .arabic)
        let rtl = TerminalBarRenderer(localizer: arabic, colours: false).lines(
            layout: .vod, state: ControlBarState(isPlaying: true, duration: .seconds(10)), width: 70)[0]
        let ltr = plain.lines(layout: .vod, state: ControlBarState(isPlaying: true, duration: .seconds(10)), width: 70)[0]
        #expect(ltr.hasPrefix(" ❚❚") || ltr.prefix(4).contains("❚❚"), "play/pause leads left to right: \(ltr)")
        #expect(rtl.trimmingCharacters(in: .whitespaces).hasSuffix("❚❚"), "and trails right to left: \(rtl)")
    }
}
