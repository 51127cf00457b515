import CovePlayerUI
import Testing

@Suite("Live edge")
struct LiveEdgeTests {
    /// A 60 s window moving in 2 s steps, the playhead starting 6 s behind its end and playing on.
    func playingLive() -> LiveEdge {
        var edge = LiveEdge()
        edge.windowChanged(start: .seconds(100), end: .seconds(160))
        edge.playheadMoved(to: .seconds(154))
        for second in 1...10 {
            if second.isMultiple(of: 2) { edge.windowChanged(start: .seconds(100 + second), end: .seconds(160 + second)) }
            edge.playheadMoved(to: .seconds(154 + second))
        }
        return edge
    }

    @Test func playingAlongTheEdgeIsLiveDespiteTheWindowsSteps() {
        let edge = playingLive()
        #expect(edge.windowStep == .seconds(2))
        #expect(edge.liveOffset == .seconds(5), "the closest seen: just before a window step")
        #expect(edge.isAtLiveEdge)
        #expect(edge.liveTarget == .seconds(165))
    }

    @Test func fallingBehindByMoreThanTheToleranceIsNotLive() {
        var edge = playingLive()
        edge.playheadMoved(to: .seconds(154))  // a 10 s seek back
        #expect(!edge.isAtLiveEdge)
        #expect(edge.behindEnd == .seconds(16))
        // Go to live: back to the usual offset, and live again.
        let target = try! #require(edge.liveTarget)
        edge.playheadMoved(to: target)
        #expect(edge.isAtLiveEdge)
    }

    @Test func pausingWhileTheWindowMovesOnFallsBehind() {
        var edge = playingLive()
        for step in 1...4 { edge.windowChanged(start: .seconds(110 + 2 * step), end: .seconds(170 + 2 * step)) }
        #expect(!edge.isAtLiveEdge, "8 s of window moved on while the playhead stood still")
    }

    @Test func aPauseDoesNotWidenTheTolerance() {
        var edge = playingLive()
        // Paused 20 s: the first report after it jumps by the whole gap, and the viewer is 20 s behind.
        edge.windowChanged(start: .seconds(130), end: .seconds(190))
        edge.playheadMoved(to: .seconds(165))
        #expect(edge.windowStep == .seconds(2), "a gap is not a segment")
        #expect(!edge.isAtLiveEdge)
        #expect(edge.liveTarget == .seconds(185))
    }

    @Test func onlyFollowingPlaybackTeachesTheLiveOffset() {
        var edge = playingLive()
        // Playing at 2× (not following) reaches the window's end: that is not the usual live position.
        edge.playheadMoved(to: .seconds(170), following: false)
        #expect(edge.liveOffset == .seconds(5))
        #expect(edge.liveTarget == .seconds(165), "go to live still targets the learnt offset")
        // A stream opened 30 s behind its edge teaches nothing until it follows the edge.
        var behind = LiveEdge()
        behind.windowChanged(start: .zero, end: .seconds(60), following: false)
        behind.playheadMoved(to: .seconds(30), following: false)
        #expect(behind.liveOffset == nil && behind.isAtLiveEdge == true, "unknown counts as live")
        #expect(behind.liveTarget == .seconds(60))
    }

    @Test func seeksAreKeptInsideTheWindowAndShortOfTheEdge() {
        let edge = playingLive()
        #expect(edge.clamped(.seconds(50)) == .seconds(110))
        #expect(edge.clamped(.seconds(200)) == .seconds(165))
        #expect(edge.clamped(.seconds(130)) == .seconds(130))
        let window = try! #require(edge.windowPosition)
        #expect(window.length == .seconds(60) && window.position == .seconds(54))
    }

    @Test func unknownIsLiveAndLongStepsWidenTheTolerance() {
        #expect(LiveEdge().isAtLiveEdge)
        #expect(LiveEdge().liveTarget == nil && LiveEdge().windowPosition == nil)
        var sixSecondSegments = LiveEdge()
        sixSecondSegments.windowChanged(start: .zero, end: .seconds(60))
        sixSecondSegments.playheadMoved(to: .seconds(42))
        sixSecondSegments.windowChanged(start: .seconds(6), end: .seconds(66))
        #expect(sixSecondSegments.tolerance == .seconds(9))
        sixSecondSegments.playheadMoved(to: .seconds(43))
        #expect(sixSecondSegments.isAtLiveEdge, "23 s behind the end, usual offset 18 s, step 6 s")
    }
}
