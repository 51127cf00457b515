import CovePlayerUI
import CoveTesting
import Testing

@Suite("Control bar width fitting")
struct BarFittingTests {
    @Test func fixedWidthsComeFirstAndTheSliderTakesTheRest() {
        let bar: ControlBar = [
            LayoutView(.playback, width: 3), LayoutView(.currentTime, width: 5), LayoutView(.progress, width: 10, elasticity: 1),
            LayoutView(.duration, width: 5),
        ]
        let fitted = bar.fit(width: 40, spacing: 1)
        #expect(fitted.frames.map(\.description) == ["playback@0+3", "currentTime@4+5", "progress@10+24", "duration@35+5"])
        #expect(fitted.dropped.isEmpty)
        #expect(fitted.frames.last?.maxX == 40)
    }

    @Test func spareRoomIsSharedInProportionToElasticity() {
        let bar: ControlBar = [LayoutView(.empty, width: 0, elasticity: 1), LayoutView(.playback, width: 2), LayoutView(.empty, width: 0, elasticity: 2)]
        let fitted = bar.fit(width: 32, spacing: 0)
        // 30 spare columns: 10 and 20.
        #expect(fitted.frames.map(\.width) == [10, 2, 20])
        #expect(fitted.frames.map(\.x) == [0, 10, 12])
        // Uneven split: 7 spare between 1:1:1 — cumulative rounding gives 2, 3, 2 and no column is lost.
        let three: ControlBar = [
            LayoutView(.empty, width: 0, elasticity: 1), LayoutView(.empty, width: 0, elasticity: 1), LayoutView(.empty, width: 0, elasticity: 1),
        ]
        #expect(three.fit(width: 7, spacing: 0).frames.map(\.width) == [2, 3, 2])
    }

    @Test func withoutElasticViewsTheSpareRoomStaysAtTheTrailingEnd() {
        let bar: ControlBar = [LayoutView(.playback, width: 3), LayoutView(.screenMode, width: 3)]
        #expect(bar.fit(width: 20).frames.map(\.description) == ["playback@0+3", "screenMode@4+3"])
        #expect(bar.fit(width: 20, direction: .rightToLeft).frames.map(\.description) == ["screenMode@13+3", "playback@17+3"])
    }

    @Test func removedViewsTakeNoSpaceAndNoGap() {
        let bar: ControlBar = [LayoutView(.playback, width: 3), LayoutView(.closedCaption, width: 4, isRemoved: true), LayoutView(.screenMode, width: 3)]
        let fitted = bar.fit(width: 7, spacing: 1)
        #expect(fitted.frames.map(\.description) == ["playback@0+3", "screenMode@4+3"])
        #expect(fitted.dropped.isEmpty, "a removed view is not 'dropped'")
    }

    @Test func tooNarrowDropsSpacersFirstThenTheLeastImportantControls() {
        let bar = ControlLayout.vod.standardBars[0].settingRemoved(false, for: .closedCaption)
        // playback 3, jumpBack 5, currentTime 8, separator 3, duration 8, progress 10, captions 4, screenMode 3 (+ bitrate removed)
        let full = bar.fit(width: 200)
        #expect(full.dropped.isEmpty)
        let narrow = bar.fit(width: 40)
        let shown = narrow.frames.map(\.view.tag)
        #expect(!shown.contains(.screenMode))
        #expect(shown.contains(.playback) && shown.contains(.progress))
        #expect(narrow.frames.last.map { $0.maxX <= 40 } == true)
        // Screen mode goes first, then the separator, then the duration: "0:12 / " never shows alone.
        #expect(narrow.dropped.map { bar.views[$0].tag } == [.screenMode, .timeSeparator, .duration])

        let spacerBar: ControlBar = [LayoutView(.playback), LayoutView(.empty, width: 4, elasticity: 1), LayoutView(.empty, width: 2), LayoutView(.screenMode)]
        let squeezed = spacerBar.fit(width: 9, spacing: 1)
        #expect(squeezed.dropped.map { spacerBar.views[$0].tag } == [.empty, .empty])
        #expect(squeezed.dropped == [1, 2], "the elastic spacer before the fixed empty box")
        #expect(squeezed.frames.map(\.view.tag) == [.playback, .screenMode])
    }

    @Test func aWidthTooSmallForAnythingShowsNothing() {
        let bar: ControlBar = [LayoutView(.playback, width: 3), LayoutView(.progress, width: 10, elasticity: 1)]
        #expect(bar.fit(width: 2).frames.isEmpty)
        #expect(bar.fit(width: 0).frames.isEmpty)
        #expect(bar.fit(width: -5).frames.isEmpty)
        #expect(bar.fit(width: 3).frames.map(\.view.tag) == [.playback])
    }

    @Test func badLiteralsAreTreatedAsFixedAndEmpty() {
        #expect(LayoutView(.progress, width: -3, elasticity: -1) == LayoutView(.progress, width: 0, elasticity: 0))
        #expect(LayoutView(.progress, elasticity: .nan).elasticity == 0)
        #expect(LayoutView(.progress, elasticity: .infinity).elasticity == 0)
        #expect(LayoutView(.playback).width == ControlTag.playback.defaultWidth)
    }

    @Test func rightToLeftMirrorsTheBar() {
        let bar = ControlLayout.vod.standardBars[0]
        for width in [30, 46, 61, 80, 133] {
            let ltr = bar.fit(width: width)
            let rtl = bar.fit(width: width, direction: .rightToLeft)
            #expect(rtl.frames.map(\.index) == Array(ltr.frames.map(\.index).reversed()))
            for frame in rtl.frames {
                let mirror = ltr.frames.first(where: { $0.index == frame.index })!
                #expect(frame.x == width - mirror.maxX && frame.width == mirror.width)
            }
            #expect(rtl.frames.first?.view.tag == ltr.frames.last?.view.tag)
            #expect(rtl.frames.last?.view.tag == .playback)
        }
    }

    /// Random bars at every width from 0 to 160, both directions: the documented guarantees hold for each.
    @Test func invariantsHoldForRandomBarsAtEveryWidth() {
        var random = SeededRandom(seed: 0x7E57_BA25)
        let tags = ControlTag.builtIn + [.custom("logo")]
        for _ in 0..<150 {
            let views = (0..<random.int(0...12)).map { _ in
                LayoutView(
                    random.pick(tags), width: random.chance(0.3) ? nil : random.int(0...14),
                    elasticity: random.chance(0.35) ? Double(random.int(1...4)) / 2 : 0, isRemoved: random.chance(0.2))
            }
            let bar = ControlBar(views)
            let spacing = random.int(0...2)
            var problems: [String] = []
            for width in 0...160 {
                for direction in LayoutDirection.allCases {
                    problems += Self.problems(bar, width: width, spacing: spacing, direction: direction)
                }
            }
            let firstProblems = Array(problems.prefix(4))
            #expect(firstProblems.isEmpty, "\(bar) spacing \(spacing), \(problems.count) problems")
        }
    }

    /// Every broken guarantee for one fit, described.
    static func problems(_ bar: ControlBar, width: Int, spacing: Int, direction: LayoutDirection) -> [String] {
        let fitted = bar.fit(width: width, spacing: spacing, direction: direction)
        let at = "width \(width) \(direction)"
        let frames = fitted.frames
        var problems: [String] = []
        for frame in frames {
            if frame.x < 0 || frame.maxX > width { problems.append("out of bounds \(frame) at \(at)") }
            if frame.width < frame.view.width { problems.append("shrunk \(frame) at \(at)") }
            if frame.view.isRemoved { problems.append("removed view shown at \(at)") }
            if bar.views[frame.index] != frame.view { problems.append("wrong index \(frame) at \(at)") }
        }
        for (a, b) in zip(frames, frames.dropFirst()) where a.maxX + spacing > b.x {
            problems.append("overlap or missing gap \(a) \(b) at \(at)")
        }
        let used = frames.reduce(0) { $0 + $1.width } + spacing * max(0, frames.count - 1)
        if used > width { problems.append("overflow \(used) at \(at)") }

        // Every candidate is shown or dropped, exactly once; removed views are neither.
        let candidates = Set(bar.views.indices.filter { !bar.views[$0].isRemoved })
        let shown = Set(frames.map(\.index))
        if !shown.isDisjoint(with: fitted.dropped) || shown.union(fitted.dropped) != candidates || Set(fitted.dropped).count != fitted.dropped.count {
            problems.append("views lost or duplicated at \(at)")
        }

        // Drop order: every dropped view ranks below every shown one (by rank, then the rightmost first).
        let key = { (i: Int) in (bar.views[i].dropRank, -i) }
        if let lowestShown = shown.map(key).min(by: { $0 < $1 }), fitted.dropped.contains(where: { !(key($0) < lowestShown) }) {
            problems.append("dropped a more important view at \(at)")
        }
        // The last view dropped did not fit next to the ones shown.
        if let last = fitted.dropped.last, frames.reduce(0, { $0 + $1.view.width }) + bar.views[last].width + spacing * frames.count <= width {
            problems.append("dropped a view that would have fitted at \(at)")
        }

        // Elastic views fill the bar exactly, each within a column of its exact share.
        let elastic = frames.filter(\.view.isElastic)
        if !elastic.isEmpty {
            if used != width { problems.append("elastic views left room unused at \(at)") }
            let spare = width - (frames.reduce(0) { $0 + $1.view.width } + spacing * (frames.count - 1))
            let total = elastic.reduce(0.0) { $0 + $1.view.elasticity }
            for frame in elastic where abs(Double(frame.width - frame.view.width) - Double(spare) * frame.view.elasticity / total) > 1 {
                problems.append("share off by more than a column \(frame) at \(at)")
            }
        }
        return problems
    }
}
