import CoveCore
import CovePlayerUI
import Testing

@testable import CovePlayerView

@Suite("Focus ring and keys")
struct FocusRingTests {
    static let regions: [HitRegion] = [
        HitRegion(target: .control(.currentTime, bar: 0, index: 0), rect: ViewRect(x: 0, y: 600, width: 80, height: 44)),
        HitRegion(target: .progress(bar: 0, index: 1), rect: ViewRect(x: 90, y: 600, width: 600, height: 44)),
        HitRegion(target: .control(.playback, bar: 1, index: 0), rect: ViewRect(x: 0, y: 660, width: 30, height: 44)),
        HitRegion(target: .control(.jumpBack, bar: 1, index: 1), rect: ViewRect(x: 40, y: 660, width: 50, height: 44), isEnabled: false),
        HitRegion(target: .control(.closedCaption, bar: 1, index: 3), rect: ViewRect(x: 600, y: 660, width: 40, height: 44)),
    ]

    @Test func itStartsOnPlayPauseAndSkipsWhatCannotBePressed() {
        #expect(FocusRing.initial(Self.regions) == .control(.playback, bar: 1, index: 0))
        // Labels and disabled controls are passed over.
        #expect(FocusRing.move(from: .control(.playback, bar: 1, index: 0), .right, in: Self.regions) == .control(.closedCaption, bar: 1, index: 3))
        #expect(FocusRing.move(from: .control(.closedCaption, bar: 1, index: 3), .right, in: Self.regions) == .control(.closedCaption, bar: 1, index: 3))
    }

    @Test func upAndDownGoToTheNearestControlOfTheOtherBar() {
        #expect(FocusRing.move(from: .control(.closedCaption, bar: 1, index: 3), .up, in: Self.regions) == .progress(bar: 0, index: 1))
        #expect(FocusRing.move(from: .progress(bar: 0, index: 1), .down, in: Self.regions) == .control(.closedCaption, bar: 1, index: 3))
        #expect(FocusRing.move(from: .progress(bar: 0, index: 1), .up, in: Self.regions) == .progress(bar: 0, index: 1))
    }

    @Test func tabGoesThroughEveryControlAndWraps() {
        var target: HitTarget? = FocusRing.initial(Self.regions)
        var seen: [HitTarget] = []
        for _ in 0..<3 {
            target = FocusRing.move(from: target, .next, in: Self.regions)
            if let target { seen.append(target) }
        }
        #expect(seen == [.progress(bar: 0, index: 1), .control(.playback, bar: 1, index: 0), .control(.closedCaption, bar: 1, index: 3)].rotated())
    }

    @Test func keysymsBecomeViewKeys() {
        #expect(ViewKey(keysym: 0xff53) == .right)
        #expect(ViewKey(keysym: 0xff0d) == .enter)
        #expect(ViewKey(keysym: 0x1008ff14) == .playPause)
        #expect(ViewKey(keysym: 0x1008ff17) == .next)
        #expect(ViewKey(keysym: 0x66) == .character("f"))
        #expect(ViewKey(keysym: 0xffe1) == nil, "a bare Shift is nothing")
    }
}

extension Array {
    /// The order Tab visits from play/pause: the rest of its bar, then the first bar.
    fileprivate func rotated() -> [Element] { count == 3 ? [self[2], self[0], self[1]] : self }
}
