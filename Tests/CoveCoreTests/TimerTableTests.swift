import Clocks
import Synchronization
import Testing

@testable import CoveCore

/// The session's one timer table: a firing counts only if its arming is still current.
@Suite("Timer table")
struct TimerTableTests {
    @Test func reArmingMakesTheEarlierArmingStaleAndAOneShotCountsOnce() {
        var table = TimerTable()
        let clock = TestClock()
        table.arm(.retry, after: .seconds(3600), clock: clock) { _ in }
        let first = table.arming(of: .retry)!
        table.arm(.retry, after: .seconds(3600), clock: clock) { _ in }
        let second = table.arming(of: .retry)!
        #expect(first != second)
        let stale = table.fired(.retry, arming: first)
        let current = table.fired(.retry, arming: second)
        let again = table.fired(.retry, arming: second)
        #expect(!stale, "a firing of the replaced timer is stale")
        #expect(current)
        #expect(!table.isArmed(.retry) && !again, "a one-shot counts once")
        table.cancelAll()
    }

    @Test func aRepeatingTimerStaysArmedAndCancelledOnesNeverCount() {
        var table = TimerTable()
        let clock = TestClock()
        table.arm(.progressTick, after: .milliseconds(250), repeats: true, clock: clock) { _ in }
        table.arm(.cueBoundary, after: .seconds(1), clock: clock) { _ in }
        let tick = table.arming(of: .progressTick)!
        let cue = table.arming(of: .cueBoundary)!
        let ticks = [table.fired(.progressTick, arming: tick), table.fired(.progressTick, arming: tick)]
        #expect(ticks == [true, true] && table.isArmed(.progressTick))
        table.cancel(.cueBoundary)
        let cancelledCue = table.fired(.cueBoundary, arming: cue)
        #expect(!cancelledCue)
        table.cancelAll()
        let armed = LoopTimer.allCases.filter { table.isArmed($0) }
        let lateTick = table.fired(.progressTick, arming: tick)
        #expect(armed.isEmpty && !lateTick)
    }

    @Test func timersFireOnTheInjectedClockAndACancelledOneStaysQuiet() async {
        var table = TimerTable()
        let clock = TestClock()
        let fired = Mutex<[String]>([])
        table.arm(.bumperStall, after: .seconds(10), clock: clock) { arming in fired.withLock { $0.append("stall \(arming)") } }
        table.arm(.retry, after: .seconds(2), clock: clock) { arming in fired.withLock { $0.append("retry \(arming)") } }
        let stall = table.arming(of: .bumperStall)!
        let start = clock.now
        table.cancel(.retry)
        // Step the clock (a task may register its sleep after a step; the next step covers it).
        for _ in 0..<400 where fired.withLock({ $0.isEmpty }) {
            await clock.advance(by: .milliseconds(100))
            await Task.yield()
        }
        let firings = fired.withLock { $0 }
        #expect(firings == ["stall \(stall)"])
        #expect(start.duration(to: clock.now) >= .seconds(10), "not before its delay")
        table.cancelAll()
    }
}
